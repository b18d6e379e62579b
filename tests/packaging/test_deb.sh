#!/usr/bin/env bash
# Builds the .deb, installs it with dpkg, uses the installed programs as a user would (CLI on the
# installed samples, the GUI offscreen), validates the desktop files, then removes the package.
# Needs root (CI runs as root). Usage: test_deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d)
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then dpkg -r scaleview >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "installing a .deb needs root"

(cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/scaleview_*.deb)
info=$(dpkg-deb -I "$deb")
grep -q "^ Depends:.*libqt6core6" <<<"$info" || fail "Depends lacks the Qt libraries: $info"
grep -q "^ Recommends:.*openmpi-bin" <<<"$info" || fail "Recommends lacks the launcher's tools"

dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
installed=1

cd /   # nothing from the source or build tree is reachable from here
for f in /usr/bin/scaleview /usr/bin/scaleview-cli \
         /usr/share/applications/io.github.scaleview.ScaleView.desktop \
         /usr/share/metainfo/io.github.scaleview.ScaleView.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/io.github.scaleview.ScaleView.svg \
         /usr/share/man/man1/scaleview.1.gz /usr/share/man/man1/scaleview-cli.1.gz; do
    [ -e "$f" ] || fail "$f was not installed"
done
if readelf -d /usr/bin/scaleview-cli | grep -q "$build"; then fail "scaleview-cli refers to the build tree"; fi

/usr/bin/scaleview-cli --version | grep -q "^scaleview-cli " || fail "--version"
samples=/usr/share/scaleview/samples/logs/ngc/mxnet/resnet50
out=$(/usr/bin/scaleview-cli summarize "$samples" 2>"$work/warnings")
grep -q "r50  fp32  batch 128 per GPU" <<<"$out" || fail "summarize on the installed samples: $out"
grep -q "reference: dlperf-ngc-mxnet-fp32-bs128" <<<"$out" || fail "compiled-in reference tables not found"

env -u DISPLAY /usr/bin/scaleview-cli plot "$samples" --chart speedup --output "$work/speedup.svg" --quiet \
    || fail "scaleview-cli plot from the installed package"
grep -q "Speedup" "$work/speedup.svg" || fail "the plotted SVG has no speedup chart"
if ldd /usr/bin/scaleview-cli | grep -q -e libQt6Widgets -e libQt6Charts; then
    fail "scaleview-cli links Qt Widgets or Charts"
fi

QT_QPA_PLATFORM=offscreen timeout 120 /usr/bin/scaleview --screenshot "$work/window.png" --page throughput \
    --settings "$work/settings.ini" "$samples" >"$work/gui.log" 2>&1 || { cat "$work/gui.log"; fail "installed GUI"; }
[ "$(stat -c %s "$work/window.png")" -gt 10000 ] || fail "the GUI's screenshot is too small to hold a chart"

appstreamcli validate --no-net /usr/share/metainfo/io.github.scaleview.ScaleView.metainfo.xml >"$work/as.log" 2>&1 \
    || { cat "$work/as.log"; fail "appstreamcli validate"; }
desktop-file-validate /usr/share/applications/io.github.scaleview.ScaleView.desktop || fail "desktop-file-validate"

dpkg -r scaleview >/dev/null
installed=0
[ ! -e /usr/bin/scaleview-cli ] || fail "dpkg -r left /usr/bin/scaleview-cli"
echo "package installed, used and removed: $(basename "$deb")"
