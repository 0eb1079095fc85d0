"""Optimal solitaire play for the Yatzy family, solved exactly (pure: numpy, no I/O, no threads).

`model.build_model(rules)` reduces a `scoring.rules.RuleSet` to arrays, `solver.solve(model, progress)` fills
the table of expected points for every state between turns, and `advice` answers from a solved table:
`keep_options` / `best_keep`, `box_values`, `decision_cost`, `keep_positions`, `hand_values`.
`simulate.simulate_games` plays seeded games under the advice to check the table against its promise.
"""
