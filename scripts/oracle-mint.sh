#!/usr/bin/env bash
# The platform's own link checker as an oracle (opt-in; never part of `npm test`, never shipped).
# `@mintlify/cli` is Elastic-2.0 and installs to about 1 GB, so it goes into a folder of its own
# outside the repository (DOCS_ADMIN_ORACLE_DIR, default ~/.cache/docs-admin-oracle-mint) and is
# only run, never bundled or copied. 4.0.1552 is the newest version that installs here.
#
#   scripts/oracle-mint.sh install            install the CLI (once; minutes)
#   scripts/oracle-mint.sh check <folder>     run `mint broken-links` with anchors, snippets and
#                                             redirects checked, in <folder> (a docs root)
set -euo pipefail
VERSION=4.0.1552
DIR="${DOCS_ADMIN_ORACLE_DIR:-$HOME/.cache/docs-admin-oracle-mint}"
MINT="$DIR/node_modules/.bin/mint"

case "${1:-}" in
  install)
    mkdir -p "$DIR"
    if [ ! -x "$MINT" ]; then
      (cd "$DIR" && [ -f package.json ] || echo '{"private":true}' > "$DIR/package.json")
      (cd "$DIR" && npm install --no-audit --no-fund --ignore-scripts "@mintlify/cli@$VERSION")
    fi
    "$MINT" --version
    ;;
  check)
    folder="${2:?usage: scripts/oracle-mint.sh check <folder>}"
    [ -x "$MINT" ] || { echo "not installed: run scripts/oracle-mint.sh install first" >&2; exit 2; }
    cd "$folder"
    # The CLI phones home for telemetry and update checks; there is no network here but the registry.
    MINTLIFY_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 "$MINT" broken-links --check-anchors --check-snippets --check-redirects
    ;;
  *)
    echo "usage: scripts/oracle-mint.sh install | check <folder>" >&2
    exit 2
    ;;
esac
