#!/usr/bin/env bash
# Installs the Debian packages the test host needs, when missing: Chromium (the window of the
# real VS Code under test), the tools code-server's install compiles native modules with,
# curl (the download benchmark's baseline), openssl (the network tests make a test CA) and git
# (the review tests run it, through VS Code's Git extension and to make their repositories).
# Needs apt-get, and root or a sudo that asks no password; otherwise prints the command to run
# and fails.
set -euo pipefail
need=()
for pkg in chromium build-essential python3 pkg-config curl openssl git; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ -n "${DOCS_ADMIN_CHROMIUM:-}" ] && [ -x "${DOCS_ADMIN_CHROMIUM}" ]; then
  need=("${need[@]/chromium}")
fi
mapfile -t need < <(printf '%s\n' "${need[@]}" | grep -v '^$' || true)
[ "${#need[@]}" -eq 0 ] && exit 0
# As root apt-get runs as it is; otherwise through sudo when it needs no password (GitHub's hosted
# runners are not root, and their sudo asks for none). Anything else: the command to run, and fail.
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo=(sudo -n)
  else
    need_root=1
  fi
fi
if [ -n "${need_root:-}" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${need[*]}" >&2
  echo "Install them with: sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "Installing system packages${sudo[*]:+ (through sudo)}: ${need[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
