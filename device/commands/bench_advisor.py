"""`pipkeeper bench-advisor`: how long and how much memory building one optimal-play table takes.

Builds from scratch in this process on one thread (the solver uses no BLAS, so numpy stays on one core) and
saves nothing. Prints JSON with the wall and CPU seconds (they differ when other work shares the core), the
peak Python/numpy allocation (tracemalloc) and the peak resident size of the whole process (ru_maxrss).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc

from device.commands.score import add_rules_options, rules_from_args
from scoring.advisor.model import UnsupportedRules, build_model
from scoring.advisor.solver import solve
from scoring.rules import RULE_NAMES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench-advisor", help="time and memory of building one advisor table")
    add_rules_options(parser, rules_flag=False)
    parser.add_argument("--rules", required=True, choices=RULE_NAMES)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args.rules, args)
        tracemalloc.start()
        started, cpu_started = time.perf_counter(), time.process_time()
        table = solve(build_model(rules))
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    except (ValueError, UnsupportedRules) as error:
        print(f"pipkeeper bench-advisor: {error}", file=sys.stderr)
        return 2
    result = {
        "rules": args.rules,
        "options": dict(rules.options),
        "expected_score": round(table.expected_score, 4),
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "peak_traced_mb": round(traced_peak / 2**20, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(result))
    return 0
