#!/usr/bin/env bash
# Remove pipkeeper's service, venv and user:  sudo systemd/uninstall.sh
#
# The games (/var/lib/pipkeeper) and the config (/etc/pipkeeper) are kept, so a reinstall picks up where
# the table left off; --purge deletes them too. --dry-run prints every step instead of doing it.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PURGE=0

usage() {
    cat <<EOF
Usage: sudo $0 [--dry-run] [--purge]

Stops and removes the $UNIT_NAME service, $PREFIX and the '$SERVICE_USER' user.
Keeps the games in $STATE_DIR and the config in $CONFIG_DIR unless --purge.

  --dry-run  print every step instead of doing it
  --purge    also delete $STATE_DIR (every saved game) and $CONFIG_DIR
EOF
}

script_option() {
    if [[ $1 == --purge ]]; then
        PURGE=1 USED=1
    fi
}

remove_service() {
    step "service $UNIT_NAME: stop, disable, remove"
    if [[ ! -f "$UNIT_PATH" ]]; then
        note "not installed"
        return
    fi
    run systemctl disable --now "$UNIT_NAME"
    run rm -f "$UNIT_PATH"
    run systemctl daemon-reload
    run systemctl reset-failed "$UNIT_NAME" || true
}

remove_program() {
    step "program: $PREFIX and $COMMAND_LINK"
    # Only our own link: a pipkeeper installed some other way into /usr/local/bin is left alone.
    if [[ -L "$COMMAND_LINK" && "$(readlink "$COMMAND_LINK")" == "$VENV/bin/pipkeeper" ]]; then
        run rm -f "$COMMAND_LINK"
    fi
    if [[ -e "$PREFIX" ]]; then
        run rm -rf "$PREFIX"
    else
        note "$PREFIX is not there"
    fi
}

remove_user() {
    step "system user '$SERVICE_USER'"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run userdel "$SERVICE_USER"
    else
        note "not there"
    fi
}

remove_or_keep_data() {
    local directory
    if [[ $PURGE -eq 1 ]]; then
        step "purge: games and config"
        for directory in "$STATE_DIR" "$CONFIG_DIR"; do
            if [[ -e "$directory" ]]; then
                run rm -rf "$directory"
            fi
        done
    else
        step "kept: games in $STATE_DIR, config in $CONFIG_DIR (delete them with --purge)"
    fi
}

main() {
    parse_options "$@"
    require_root
    if [[ $DRY_RUN -eq 1 ]]; then
        step "dry run: nothing will be changed"
    fi
    remove_service
    remove_program
    remove_user
    remove_or_keep_data
}

main "$@"
