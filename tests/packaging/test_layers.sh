#!/bin/sh
# scaleview-plot must hold no code of the launcher or the history and must not load Qt SQL.
set -eu
plot="$1"
[ -x "$plot" ] || { echo "no executable: $plot"; exit 1; }
found=$(nm -C "$plot" | grep -cE ' (T|t|W) sv::(launcher|history)::' || true)
if [ "$found" -ne 0 ]; then
    echo "scaleview-plot holds $found launcher/history symbols, e.g.:"
    nm -C "$plot" | grep -E ' (T|t|W) sv::(launcher|history)::' | head -5
    exit 1
fi
if ldd "$plot" | grep -q 'libQt6Sql'; then
    echo "scaleview-plot loads Qt SQL:"; ldd "$plot" | grep libQt6Sql; exit 1
fi
# The check itself must see symbols: the chart builders are there.
nm -C "$plot" | grep -qE ' (T|t) sv::ui::' || { echo "no sv::ui symbols read from $plot"; exit 1; }
echo "scaleview-plot: no launcher, no history, no Qt SQL"
