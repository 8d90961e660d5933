#!/usr/bin/env bash
# Builds fc-solve 5.0.0 natively (the fast reference build `fcauto bench --vs-fc-solve` is
# measured against) and installs it where bench finds it by itself:
#
#   scripts/build-fc-solve.sh          # fetch, check, build, install (nothing when already done)
#
# Where things go, under the cargo target dir ($CARGO_TARGET_DIR, else <repo>/target):
#   fc-solve-src/        the release tarball and a private apt set-up that fetched it
#   fc-solve-5.0.0-native/  the unpacked sources and the build dir
#   fc-solve-native/     the install prefix: bin/fc-solve, bin/freecell-solver-range-parallel-solve
#                        and share/freecell-solver (the presets such as `-l lg` read)
# bench looks for <dir of the fcauto binary>/../fc-solve-native/bin, i.e. this bin/ folder
# when fcauto was built in the same target dir (docs/bench.md).
#
# Steps:
# 1. The release tarball freecell-solver_5.0.0.orig.tar.xz comes from Debian's source archive
#    (it is self-contained: it ships Tatzer, patsolve and xxHash), fetched with
#    `apt-get source --download-only` through a PRIVATE apt set-up: a deb-src entry for trixie
#    in our own sources dir, our own lists and cache. The system's apt configuration is not
#    touched. The mirror is the one of this machine's own Debian entry (as setup-deps.sh does).
#    Only the tarball counts: the .dsc and .debian.tar.xz may 404 on the mirror.
# 2. Its SHA-256 is checked against the value pinned below.
# 3. The build dependencies are installed with apt-get (the system's, only when missing).
# 4. Build with the tarball's own `Tatzer -l extra_speed3` (Freecell-only, -O3 -march=native,
#    LTO), tcmalloc linked for real: with LTO the default --as-needed drops libtcmalloc
#    silently, hence LDFLAGS=-Wl,--no-as-needed; the script checks with ldd that it is linked.
set -euo pipefail
# -h, --help: print the comment above and do nothing else (the script installs and builds).
case "${1:-}" in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac

VERSION=5.0.0
TARBALL="freecell-solver_${VERSION}.orig.tar.xz"
# SHA-256 of the tarball as listed in trixie's signed Sources index (Checksums-Sha256 of
# freecell-solver 5.0.0-2.1); the .dsc itself 404s on the mirror, so it was taken from the
# index (`apt-cache showsrc`) and matched the downloaded file.
TARBALL_SHA256=696717df7e4fab2d5a038b26cc23e2259f7b68a101bc8a4855dffa2841699dfd
BUILD_DEPS=(build-essential cmake gperf perl libpath-tiny-perl libtemplate-perl python3-six
  python3-random2 libgoogle-perftools-dev xz-utils)

die() { echo "build-fc-solve: $*" >&2; exit 1; }
say() { echo "build-fc-solve: $*"; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
src_dir="$target/fc-solve-src"
build_root="$target/fc-solve-${VERSION}-native"
prefix="$target/fc-solve-native"
stamp="$prefix/.built-from-$TARBALL_SHA256"

if [[ -f "$stamp" && -x "$prefix/bin/fc-solve" && -x "$prefix/bin/freecell-solver-range-parallel-solve" ]]; then
  say "already built: $prefix/bin"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

# --- 1. fetch the tarball through a private apt set-up --------------------------------------
fetch_tarball() {
  local apt="$src_dir/apt" entry=/etc/apt/sources.list.d/debian.sources line
  mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial"
  : >"$apt/sources.list"
  if [[ -f "$entry" ]]; then
    # First stanza of the machine's own Debian entry, as a deb-src entry for trixie.
    awk 'BEGIN{RS="";ORS="\n\n"} NR==1' "$entry" \
      | sed -E 's/^Types:.*/Types: deb-src/; s/^Suites:.*/Suites: trixie/' | grep -v '^#' \
      >"$apt/sources.list.d/trixie-src.sources"
  elif [[ -f /etc/apt/sources.list ]]; then
    line=$(grep -E '^deb .* bookworm( |$)' /etc/apt/sources.list | head -n1) \
      || die "no Debian 'deb ... bookworm' line in /etc/apt/sources.list to copy for trixie"
    echo "$line" | sed -E 's/^deb /deb-src /; s/ bookworm( |$)/ trixie\1/' \
      >"$apt/sources.list.d/trixie-src.list"
  else
    die "no Debian apt source entry found to copy for trixie"
  fi
  local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list"
    -o "Dir::Etc::sourceparts=$apt/sources.list.d"
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  apt-get "${opts[@]}" update -qq || die "apt-get update of the private trixie deb-src entry failed"
  # The .dsc and .debian.tar.xz may 404 (apt then exits non-zero): only the tarball counts.
  (cd "$src_dir" && apt-get "${opts[@]}" source --download-only freecell-solver) \
    || [[ -f "$src_dir/$TARBALL" ]] \
    || die "apt-get source did not download $TARBALL"
}

mkdir -p "$src_dir"
if [[ ! -f "$src_dir/$TARBALL" ]]; then
  say "fetching $TARBALL from Debian's source archive (trixie, private apt set-up)"
  fetch_tarball
fi
[[ -f "$src_dir/$TARBALL" ]] || die "$src_dir/$TARBALL is missing after the download"

# --- 2. check the tarball ----------------------------------------------------------------------
got=$(sha256sum "$src_dir/$TARBALL" | cut -d' ' -f1)
if [[ "$got" != "$TARBALL_SHA256" ]]; then
  die "SHA-256 mismatch for $src_dir/$TARBALL: got $got, expected $TARBALL_SHA256 (delete it to fetch again)"
fi
say "tarball SHA-256 ok ($got)"

# --- 3. build dependencies -------------------------------------------------------------------
missing=()
for p in "${BUILD_DEPS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  say "installing build dependencies: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- 4. build and install --------------------------------------------------------------------
sources="$build_root/freecell-solver-${VERSION}"
build="$build_root/build"
rm -rf "$build_root"
mkdir -p "$build_root" "$build"
tar -xJf "$src_dir/$TARBALL" -C "$build_root"
[[ -x "$sources/Tatzer" ]] || die "the tarball has no Tatzer at $sources/Tatzer"

say "configuring with Tatzer -l extra_speed3 in $build"
(cd "$build" && LDFLAGS=-Wl,--no-as-needed "$sources/Tatzer" -l extra_speed3 --prefix="$prefix") \
  || die "Tatzer (cmake) failed in $build"
say "building"
jobs=$(nproc 2>/dev/null || echo 1)
make -C "$build" -j"$jobs" || die "make failed in $build"
rm -rf "$prefix"
make -C "$build" install || die "make install into $prefix failed"

for exe in fc-solve freecell-solver-range-parallel-solve; do
  [[ -x "$prefix/bin/$exe" ]] || die "$prefix/bin/$exe was not installed"
  ldd "$prefix/bin/$exe" | grep -q libtcmalloc \
    || die "$prefix/bin/$exe is not linked against libtcmalloc (ldd)"
done
touch "$stamp"
say "installed $prefix/bin (fc-solve, freecell-solver-range-parallel-solve; tcmalloc linked)"
