#!/usr/bin/env bash
# Screenshots of issue 28's views (docs/screenshots/loss-breakdown.png, nodes.png): a generated
# 1n1g..4n4g campaign (genlogs.py, 4n4g 10 % slower) with a probes.json written beside it as the
# launcher writes one (each node alone at 4 GPUs, node3 about 10 % slower; a 102.4 MB NCCL
# all-reduce per case), shown on the Speedup page at 1024x700; then three nightly campaigns with
# their probes (node3 slower in the last) recorded into a private history, shown on the Nodes
# page. The figures are generated, not measured: the views are what is shown.
# Usage: tools/lossshots.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
work=$build/loss-shots
rm -rf "$work"
mkdir -p "$work"
shoot() { # shoot OUT.png PAGE DIR
    rm -f "$work/shot.ini"
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/scaleview" --settings "$work/shot.ini" \
        --screenshot "$1" --page "$2" --size 1024x700 "$3"
}
# probes OUT_DIR TOPOLOGY NODE=FACTOR... [-- RANKS SECONDS]: solo probes at FACTOR x the 1n1g pace.
write_probes() {
    python3 - "$@" <<'PY'
import json, os, random, sys
out, t1, spec = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
random.seed(out)
recs = []
for topo, case in spec.items():
    for node, f in case["solo"].items():
        s = [round(t1 * f * (1 + random.uniform(-0.004, 0.004)), 2) for _ in range(5)]
        recs.append({"kind": "solo", "topology": topo, "model": "r50", "precision": "fp32",
                     "batch_size_per_device": 128, "node": node, "devices": 4,
                     "pace_per_device": sorted(s)[2], "pace_samples": s})
    if "allreduce" in case:
        ranks, sec = case["allreduce"]
        recs.append({"kind": "allreduce", "topology": topo, "model": "r50", "precision": "fp32",
                     "batch_size_per_device": 128, "backend": "nccl", "bytes": 102400000,
                     "ranks": ranks,
                     "seconds": [round(sec * (1 + random.uniform(-0.05, 0.05)), 5)
                                 for _ in range(5)]})
json.dump({"probes": recs}, open(os.path.join(out, "probes.json"), "w"), indent=1)
PY
}
pace1() { # the 1n1g median of DIR
    SCALEVIEW_HISTORY_DB=off "$build/app/scaleview-cli" summarize "$1" --format json |
        python3 -c "import json,sys; print([c['median_speed'] for c in json.load(sys.stdin)['cases'] if c['topology']=='1n1g'][0])"
}

c=$work/campaign-slow-node
python3 tools/genlogs.py "$c" --topologies 1n1g,1n4g,2n4g,4n4g --repeats 3 --seed 7 \
    --speed 4n4g=0.9 >/dev/null
write_probes "$c" "$(pace1 "$c")" '{
  "1n4g": {"solo": {"node1": 0.975}, "allreduce": [4, 0.004]},
  "2n4g": {"solo": {"node1": 0.975, "node2": 0.972}, "allreduce": [8, 0.015]},
  "4n4g": {"solo": {"node1": 0.975, "node2": 0.972, "node3": 0.88, "node4": 0.974},
           "allreduce": [16, 0.020]}}'
SCALEVIEW_HISTORY_DB=off shoot docs/screenshots/loss-breakdown.png speedup "$c"

export SCALEVIEW_HISTORY_DB=$work/history.sqlite
for w in 1 2 3; do
    d=$work/nightly-2026-11-0$w
    python3 tools/genlogs.py "$d" --topologies 1n1g,4n4g --repeats 3 --seed $((10 + w)) >/dev/null
    slow=$([ $w = 3 ] && echo 0.88 || echo 0.97)
    write_probes "$d" "$(pace1 "$d")" "{\"4n4g\": {\"solo\": {\"node1\": 0.972, \"node2\": 0.97,
        \"node3\": $slow, \"node4\": 0.974}}}"
    find "$d" -name '*.log' -exec touch -d "2026-11-0$w 03:00:00" {} +
    "$build/app/scaleview-cli" history record "$d" >/dev/null
done
shoot docs/screenshots/nodes.png nodes "$work/nightly-2026-11-03"
"$build/app/scaleview-cli" nodes
