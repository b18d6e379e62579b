#!/usr/bin/env bash
# Screenshots of the History and Environment pages (docs/screenshots/history.png,
# environment.png; history-changepoint.png from eight nightly campaigns of their own): four
# generated weekly campaigns, each with a captured environment, the last
# with a driver upgrade and 1n8g 8 % slower, recorded into a private history, then the real
# window under Xvfb. Usage: tools/historyshots.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
work=$build/history-shots
rm -rf "$work"
mkdir -p "$work"
export SCALEVIEW_HISTORY_DB=$work/history.sqlite
# A host's environment file as the launcher captures it: write_env DIR HOST DRIVER DAY
write_env() {
    local dir=$1 host=$2 driver=$3 day=$4
    cat >"$dir/environment/2026110$day-020000-$host.txt" <<TXT
ScaleView 0.1.0
profile ngc-mxnet-rn50: NGC MXNet ResNet-50 v1.5 (the seed's runner)
== hostname
$host
== kernel
Linux $host 6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 x86_64 GNU/Linux
== cpus
128
== nvidia-smi -q

==============NVSMI LOG==============

Timestamp                                 : Mon Nov  $day 02:00:00 2026
Driver Version                            : $driver
CUDA Version                              : 12.4

Attached GPUs                             : 8
GPU 00000000:18:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    Product Brand                         : NVIDIA
    Persistence Mode                      : Enabled
== nvidia-smi topo -m
        GPU0    GPU1    GPU2    GPU3    GPU4    GPU5    GPU6    GPU7
GPU0     X      NV12    NV12    NV12    NV12    NV12    NV12    NV12
== container image nvcr.io/nvidia/mxnet:24.03-py3 (id, repo digests)
sha256:6f1c3a9e27b4 ["nvcr.io/nvidia/mxnet@sha256:2b7e..."]
== docker server version
24.0.7
== mpirun
mpirun (Open MPI) 4.1.4
TXT
}
for week in 1 2 3 4; do
    dir=$work/campaign-2026-11-0$((week * 2))
    slow=()
    driver=535.104.05
    if [ "$week" = 4 ]; then slow=(--slow 1n8g:0.92); driver=550.54.14; fi
    python3 tools/genlogs.py "$dir/logs" --topologies 1n1g,1n2g,1n4g,1n8g --seed "$week" "${slow[@]}" >/dev/null
    mkdir -p "$dir/environment"
    echo '{"profile": "ngc-mxnet-rn50", "warmup": 20, "iterations": 120}' >"$dir/campaign.json"
    for host in node1 node2; do write_env "$dir" "$host" "$driver" $((week * 2)); done
    # The campaign ran on that day: its logs say so.
    find "$dir/logs" -name '*.log' -exec touch -d "2026-11-0$((week * 2)) 03:00 UTC" {} +
    "$build/app/scaleview-cli" history record "$dir/logs" --quiet
done
last=$work/campaign-2026-11-08/logs
for page in history environment; do
    rm -f "$work/screenshot.ini"
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/scaleview" --settings "$work/screenshot.ini" \
        --screenshot "docs/screenshots/$page.png" --page "$page" --size 1400x900 "$last"
done
# The History page with a change point (docs/screenshots/history-changepoint.png): eight
# nightly campaigns in a history of their own, the last four on a new driver and 8 % slower.
export SCALEVIEW_HISTORY_DB=$work/changepoint.sqlite
for night in 1 2 3 4 5 6 7 8; do
    dir=$work/nightly-2026-12-0$night
    driver=535.104.05
    slow=()
    if [ "$night" -ge 5 ]; then driver=550.54.14; slow=(--slow 1n1g:0.92 --slow 1n8g:0.92); fi
    python3 tools/genlogs.py "$dir/logs" --topologies 1n1g,1n8g --seed "$((night + 10))" "${slow[@]}" >/dev/null
    mkdir -p "$dir/environment"
    echo '{"profile": "ngc-mxnet-rn50", "warmup": 20, "iterations": 120}' >"$dir/campaign.json"
    for host in node1 node2; do write_env "$dir" "$host" "$driver" "$night"; done
    find "$dir/logs" -name '*.log' -exec touch -d "2026-12-0$night 03:00 UTC" {} +
    "$build/app/scaleview-cli" history record "$dir/logs" --quiet
done
rm -f "$work/screenshot.ini"
xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/scaleview" --settings "$work/screenshot.ini" \
    --screenshot docs/screenshots/history-changepoint.png --page history --size 1400x900 \
    "$work/nightly-2026-12-08/logs"
export SCALEVIEW_HISTORY_DB=$work/history.sqlite
# The report of the last two campaigns, rendered: by a headless Chromium where Debian's
# chromium-headless-shell (or chromium) is installed, as a reader's browser draws it; else by
# Qt's rich-text engine with each SVG chart drawn by Qt SVG (scaleview --render-html).
"$build/app/scaleview-cli" report "$work/campaign-2026-11-06/logs" "$last" --label 2026-11-06 \
    --label 2026-11-08 --output "$work/report.html" --quiet
if browser=$(command -v chromium-headless-shell || command -v chromium); then
    # As root (containers, CI) Chromium runs only with --no-sandbox; the page is our own file.
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,2400 \
        --screenshot="$PWD/docs/screenshots/report.png" "file://$(realpath "$work/report.html")" \
        2>/dev/null
else
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/scaleview" --render-html "$work/report.html" \
        --screenshot docs/screenshots/report.png
fi
