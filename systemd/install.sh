#!/usr/bin/env bash
# Install pipkeeper on Raspberry Pi OS (Bookworm) and start it at boot:  sudo systemd/install.sh
#
# Safe to run again: every step checks what is already there. Rerun it after `git pull` to update.
# --dry-run prints every step instead of doing it (no root needed).
set -euo pipefail
umask 022  # the venv and config must be readable by the service user

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# numpy, picamera2 and lgpio come from apt (picamera2 is built against the apt numpy); the rest is pinned
# in requirements/pi.txt and installed into the venv.
APT_PACKAGES=(python3-venv python3-numpy python3-picamera2 python3-lgpio)
GROUPS_NEEDED=(video gpio)

usage() {
    cat <<EOF
Usage: sudo $0 [--dry-run] [--source DIR]

Installs pipkeeper as a systemd service: apt packages, the '$SERVICE_USER' system user, a venv in $VENV,
a default config in $CONFIG_FILE (kept if present), the unit $UNIT_NAME; then starts it.

  --dry-run     print every step instead of doing it
  --source DIR  the pipkeeper source tree to install (default: $SOURCE_DIR)
EOF
}

script_option() {
    if [[ $1 == --source ]]; then
        [[ $# -ge 2 ]] || die "--source needs a directory"
        SOURCE_DIR="$(cd "$2" 2>/dev/null && pwd)" || die "--source: $2 is not a directory"
        USED=2
    fi
}

check_source() {
    local needed
    for needed in pyproject.toml requirements/pi.txt "systemd/$UNIT_NAME"; do
        [[ -f "$SOURCE_DIR/$needed" ]] || die "$SOURCE_DIR does not look like pipkeeper's source: no $needed"
    done
}

install_apt_packages() {
    step "apt packages: ${APT_PACKAGES[*]}"
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$package")
        fi
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        note "already installed"
        return
    fi
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

create_user() {
    step "system user '$SERVICE_USER' in groups ${GROUPS_NEEDED[*]}"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    local group_list
    group_list="$(IFS=,; echo "${GROUPS_NEEDED[*]}")"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run usermod --append --groups "$group_list" "$SERVICE_USER"
    else
        run useradd --system --user-group --groups "$group_list" --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "pipkeeper dice scorekeeper" "$SERVICE_USER"
    fi
}

create_venv() {
    step "virtual environment $VENV (sees apt's numpy, picamera2 and lgpio)"
    run mkdir -p "$PREFIX"
    # Rerunning venv on an existing one keeps its packages and only refreshes its settings.
    run python3 -m venv --system-site-packages "$VENV"
}

install_pipkeeper() {
    step "pipkeeper from $SOURCE_DIR with the pins in requirements/pi.txt"
    # Build from a copy so root never leaves build/ or *.egg-info owned by root in the user's checkout.
    local numpy_pin
    run tar -C "$SOURCE_DIR" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' \
        -cf "$STAGING/source.tar" .
    run mkdir "$STAGING/source"
    run tar -C "$STAGING/source" -xf "$STAGING/source.tar"
    # Pin numpy to the apt build picamera2 was compiled against, so pip can never replace it.
    if [[ $DRY_RUN -eq 1 ]]; then
        note "would pin numpy to the version apt installed (python3 -c 'import numpy')"
        numpy_pin="numpy==APT_VERSION"
    else
        numpy_pin="numpy==$(python3 -c 'import numpy; print(numpy.__version__)')"
    fi
    run "$VENV/bin/python" -m pip install --quiet --upgrade pip
    run "$VENV/bin/python" -m pip install --quiet --upgrade --constraint "$SOURCE_DIR/requirements/pi.txt" \
        "$numpy_pin" "$STAGING/source"
    run ln -sfn "$VENV/bin/pipkeeper" "$COMMAND_LINK"
}

write_default_config() {
    step "config $CONFIG_FILE"
    if [[ -f "$CONFIG_FILE" ]]; then
        note "kept (yours); checking it:"
        run "$VENV/bin/pipkeeper" config --check "$CONFIG_FILE" || note "fix it, then: sudo systemctl restart pipkeeper"
        return
    fi
    # The repo's default listens on loopback only; a Pi at the table must be reachable from the tablets.
    if [[ $DRY_RUN -eq 1 ]]; then
        note "would write the output of 'pipkeeper config --default' with web host 0.0.0.0 (all interfaces)"
        return
    fi
    local draft="$STAGING/config.toml"
    "$VENV/bin/pipkeeper" config --default | sed 's/^host = "127\.0\.0\.1"$/host = "0.0.0.0"/' >"$draft"
    grep -q '^host = "0\.0\.0\.0"$' "$draft" || die "the default config has no 'host = \"127.0.0.1\"' line to open up"
    "$VENV/bin/pipkeeper" config --check "$draft" >/dev/null
    install -d -m 0755 "$CONFIG_DIR"
    install -m 0644 "$draft" "$CONFIG_FILE"
}

install_unit() {
    step "systemd unit $UNIT_PATH, enabled at boot and (re)started"
    run install -m 0644 "$SOURCE_DIR/systemd/$UNIT_NAME" "$UNIT_PATH"
    run systemctl daemon-reload
    run systemctl enable "$UNIT_NAME"
    # Type=notify: restart returns once pipkeeper says READY (GPIO set up, web port bound), or fails.
    if ! run systemctl restart "$UNIT_NAME"; then
        journalctl --unit "$UNIT_NAME" --lines 30 --no-pager >&2 || true
        die "pipkeeper did not start; the log is above. Diagnose with: sudo -u $SERVICE_USER pipkeeper doctor"
    fi
}

print_address() {
    local address port
    address="$(hostname -I 2>/dev/null | awk '{print $1}')"
    if [[ $DRY_RUN -eq 1 || ! -f "$CONFIG_FILE" ]]; then
        port="<web.port>"
    else
        port="$("$VENV/bin/python" -c 'import sys; from device.config import load_config
print(load_config(sys.argv[1]).web.port)' "$CONFIG_FILE")"
    fi
    local base="http://${address:-<address of this Pi>}:$port"
    step "done"
    note "Scorecard:  $base/"
    note "Admin page: $base/admin"
    note "Admin password: sudo -u $SERVICE_USER pipkeeper set-admin-password --state-dir $STATE_DIR"
    note "Health check: sudo -u $SERVICE_USER pipkeeper doctor --state-dir $STATE_DIR"
    note "Logs: journalctl -u pipkeeper -f"
}

main() {
    parse_options "$@"
    require_root
    check_source
    if [[ $DRY_RUN -eq 1 ]]; then
        step "dry run: nothing will be changed"
        STAGING="/tmp/pipkeeper-install.XXXXXX"
    else
        STAGING="$(mktemp -d)"
        trap 'rm -rf "$STAGING"' EXIT
    fi
    install_apt_packages
    create_user
    create_venv
    install_pipkeeper
    write_default_config
    install_unit
    print_address
}

main "$@"
