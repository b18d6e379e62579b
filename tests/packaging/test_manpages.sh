#!/usr/bin/env bash
# Every option that --help names is documented in the man page, and every option the man page
# documents exists in --help. Usage: test_manpages.sh SCALEVIEW_CLI SCALEVIEW PACKAGING_DIR
set -euo pipefail
cli=$1 gui=$2 dir=$3
status=0
check() { # program-help-text man-page
    local help=$1 page=$2
    local fromHelp fromMan
    fromHelp=$(grep -oE -- '--[a-z][a-z0-9-]+' <<<"$help" | sort -u)
    fromMan=$(sed 's/\\-/-/g' "$page" | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
    local missing extra
    missing=$(comm -23 <(echo "$fromHelp") <(echo "$fromMan"))
    extra=$(comm -13 <(echo "$fromHelp") <(echo "$fromMan"))
    if [ -n "$missing" ]; then echo "$(basename "$page"): not documented: $missing"; status=1; fi
    if [ -n "$extra" ]; then echo "$(basename "$page"): documented but not in --help: $extra"; status=1; fi
    # Subcommands too.
    for cmd in $(grep -oE '^  scaleview-cli [a-z]+' <<<"$help" | awk '{print $2}' | sort -u); do
        grep -q "^\.SS $cmd" "$page" || { echo "$(basename "$page"): no section for '$cmd'"; status=1; }
    done
}
check "$("$cli" --help)" "$dir/scaleview-cli.1"
check "$("$gui" --help)" "$dir/scaleview.1"
[ "$status" = 0 ] && echo "--help and the man pages agree"
exit "$status"
