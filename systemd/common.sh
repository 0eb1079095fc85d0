# Shared by install.sh and uninstall.sh (sourced, not run): where pipkeeper lives on a Raspberry Pi, and
# how each step is either done or, with --dry-run, only shown. Keeping both in one place means the
# uninstaller removes exactly what the installer created.
# shellcheck shell=bash disable=SC2034  # the variables are used by the scripts that source this file

# PIPKEEPER_FAKE_ROOT (tests only, refused without --dry-run): look for an existing installation under this
# directory instead of /, so CI can dry-run the "already installed" paths on a machine with nothing installed.
FAKE_ROOT="${PIPKEEPER_FAKE_ROOT:-}"

SERVICE_USER=pipkeeper
PREFIX="$FAKE_ROOT/opt/pipkeeper"
VENV="$PREFIX/venv"
CONFIG_DIR="$FAKE_ROOT/etc/pipkeeper"
CONFIG_FILE="$CONFIG_DIR/config.toml"
STATE_DIR="$FAKE_ROOT/var/lib/pipkeeper"
UNIT_NAME=pipkeeper.service
UNIT_PATH="$FAKE_ROOT/etc/systemd/system/$UNIT_NAME"
COMMAND_LINK="$FAKE_ROOT/usr/local/bin/pipkeeper"

DRY_RUN=0

# A heading for each step, printed in both modes so a dry run reads like the real one.
step() {
    printf '==> %s\n' "$*"
}

# Run a command, or in a dry run print it (shell-quoted, so it can be copied and run by hand).
run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '    would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

note() {
    printf '    %s\n' "$*"
}

die() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

# Parse the command line: --dry-run and --help here; every other word goes to the calling script's
# `script_option WORDS...`, which handles the option at the front and sets USED to the number of words it
# took (0: not an option of that script). Both scripts define `usage` and `script_option`.
parse_options() {
    local USED
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dry-run) USED=1 DRY_RUN=1 ;;
            -h | --help)
                usage
                exit 0
                ;;
            *)
                USED=0
                script_option "$@"
                [[ $USED -gt 0 ]] || die "unknown option: $1 (see --help)"
                ;;
        esac
        shift "$USED"
    done
}

require_root() {
    if [[ -n $FAKE_ROOT && $DRY_RUN -eq 0 ]]; then
        die "PIPKEEPER_FAKE_ROOT is for tests and needs --dry-run"
    fi
    if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
        die "run it as root (sudo $0), or add --dry-run to see what it would do"
    fi
}
