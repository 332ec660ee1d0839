#!/usr/bin/env bash
# scripts/swift.sh — run a Swift command for a SwiftPM package, provisioning a
# Swift toolchain first when the machine has none.
#
# Usage:
#   scripts/swift.sh PACKAGE_DIR CMD [ARGS...]
#       Run CMD ARGS... with PACKAGE_DIR as the working directory, e.g.
#         scripts/swift.sh generated/swift swift build -Xswiftc -warnings-as-errors
#         scripts/swift.sh generated/swift swift test
#         scripts/swift.sh generated/swift swift-format lint --strict -r Sources Tests
#   scripts/swift.sh --provision
#       Only make sure the toolchain exists (idempotent; seconds once done).
#
# How:
#   * If a native `swift` is on PATH, CMD simply runs there.
#   * Otherwise CMD runs inside a Debian trixie chroot that carries Debian's
#     `swiftlang` package (Swift 6.0.3), kept at
#     ${SYMGEN_SWIFT_ROOT:-/var/cache/symgen/swift-trixie} — outside the repo so
#     that every clone on the machine shares it. The chroot is created on first
#     use (needs root and the Debian mirror; ~1-2 min, ~2.7 GiB on disk).
#   * Every chroot run happens in its own mount namespace (`unshare -m`): the
#     bind mounts (/proc, /dev, /sys and the repository root, at the same
#     absolute path so #filePath-relative test fixtures resolve) exist only for
#     that run and vanish with it, even when it is killed. Concurrent runs thus
#     never see or unmount each other's mounts.
#   * CMD's exit status is the script's exit status. Provisioning problems end
#     the script with one "swift.sh: error: ..." line and a non-zero status.
#
# Environment:
#   SYMGEN_SWIFT_ROOT     chroot location   (default /var/cache/symgen/swift-trixie)
#   SYMGEN_DEBIAN_MIRROR  Debian mirror URL (default: the first Debian mirror
#                         in the host's apt sources; no built-in fallback)
set -euo pipefail

readonly SUITE=trixie
ROOT="${SYMGEN_SWIFT_ROOT:-/var/cache/symgen/swift-trixie}"
ROOT="${ROOT%/}"
readonly ROOT
readonly LOCK="$ROOT.lock"   # flock: one provisioning at a time
readonly LOG="$ROOT.log"     # output of the last provisioning
# Stage markers, inside the chroot so that removing it removes them too.
readonly BASE_MARKER="$ROOT/.symgen-debootstrap-done"
readonly MARKER="$ROOT/.symgen-provisioned"
# Packages installed into the chroot. Changing this list makes the next run
# install the difference (the marker records the list it was made with).
readonly PACKAGES=(
  swiftlang       # swift, swiftc, swift-build/-test, swift-format, XCTest, Foundation
  libc6-dev       # C headers/crt files the Swift driver links against
  ca-certificates # HTTPS for SwiftPM, should a package ever fetch dependencies
  git             # SwiftPM shells out to git for dependencies / version info
)
readonly SPEC="suite=$SUITE packages=${PACKAGES[*]}"
# Environment of commands inside the chroot (Debian's swiftlang keeps its
# toolchain in /usr/libexec/swift).
readonly CHROOT_PATH=/usr/libexec/swift/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
readonly CHROOT_LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux

SELF="$(readlink -f "${BASH_SOURCE[0]}")"
readonly SELF

die() { echo "swift.sh: error: $*" >&2; exit 1; }
note() { echo "swift.sh: $*" >&2; }

# The chroot gets `rm -rf`ed when unfinished: insist on a sane location.
[[ $ROOT == /?*/?* ]] || die "SYMGEN_SWIFT_ROOT must be an absolute path below a top-level directory, not '$ROOT'"

usage() {
  sed -n '5,12s/^# \{0,1\}//p' "$SELF" >&2
  exit 2
}

# --------------------------------------------------------------------------
# Mount namespace side (runs as `swift.sh __ns REPO WORKDIR CMD...` under
# `unshare -m`): set up the mounts, run CMD chrooted, tear the mounts down.
# --------------------------------------------------------------------------

ns_mounts=()  # mount points, in the order they were made

ns_cleanup() {
  local i
  for ((i = ${#ns_mounts[@]} - 1; i >= 0; i--)); do
    umount -R "${ns_mounts[i]}" 2>/dev/null || umount -R -l "${ns_mounts[i]}" 2>/dev/null || true
  done
  ns_mounts=()
}

ns_mount() {  # ns_mount MOUNTPOINT MOUNT-ARGS...
  local target="$1"; shift
  mount "$@" "$target" || die "cannot mount $target"
  ns_mounts+=("$target")
}

ns_main() {  # ns_main REPO WORKDIR CMD... (REPO may be empty)
  local repo="$1" workdir="$2"; shift 2
  trap ns_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # Nothing we mount may leak back to the host, whatever unshare's defaults.
  mount --make-rprivate / || die "cannot make the mount namespace private"
  ns_mount "$ROOT/proc" -t proc proc
  ns_mount "$ROOT/dev" --rbind /dev   # brings /dev/pts and /dev/shm along
  ns_mount "$ROOT/sys" --rbind /sys
  if [[ -n $repo ]]; then
    mkdir -p "$ROOT$repo"
    ns_mount "$ROOT$repo" --bind "$repo"
  fi
  local rc=0
  # The caller's environment is kept, except PATH/LD_LIBRARY_PATH/HOME (set
  # for the chroot) and TMPDIR (a host path that may not exist in there).
  chroot "$ROOT" /usr/bin/env --chdir="$workdir" -u TMPDIR \
    PATH="$CHROOT_PATH" LD_LIBRARY_PATH="$CHROOT_LD_LIBRARY_PATH" HOME=/root \
    "$@" || rc=$?
  exit "$rc"
}

# Run CMD in the chroot in a mount namespace of its own.
in_chroot() {  # in_chroot REPO WORKDIR CMD...
  unshare -m --propagation private -- "$BASH" "$SELF" __ns "$@"
}

# --------------------------------------------------------------------------
# Provisioning
# --------------------------------------------------------------------------

# The host's Debian mirror: the first ".../debian" URI in apt's sources.
host_mirror() {
  local uri
  uri="$(
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources 2>/dev/null |
      awk '/^deb[ \t]/ { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }
           /^URIs:/   { for (i = 2; i <= NF; i++) print $i }' |
      grep -E '^https?://[^ ]*/debian/?$' | head -n 1
  )" || true
  [ -n "$uri" ] || die "no Debian mirror in apt's sources; set SYMGEN_DEBIAN_MIRROR"
  echo "$uri"
}

# Mount points at or under $ROOT in this (the host's) mount namespace, deepest
# first. (Mount points with spaces or other escaped characters are not expected.)
mounts_under_root() {
  awk -v r="$ROOT" '$5 == r || index($5, r "/") == 1 { print $5 }' \
    /proc/self/mountinfo | sort -r
}

# Unmount anything left under $ROOT in the host namespace (only a run of an
# older version of this script, or a hand-made mount, can leave such a thing),
# and make sure nothing is left: we are about to `rm -rf` in there, and a
# leftover bind mount of the repository must never be deleted through.
unmount_stale() {
  local mp
  while read -r mp; do
    note "unmounting stale $mp"
    umount -R -l "$mp" 2>/dev/null || true
  done < <(mounts_under_root)
  [[ -z "$(mounts_under_root)" ]] || die "cannot unmount stale mounts under $ROOT"
}

provision_locked() {
  local mirror script
  mirror="${SYMGEN_DEBIAN_MIRROR:-$(host_mirror)}"
  unmount_stale
  : >"$LOG"

  if [[ ! -f $BASE_MARKER ]]; then
    # Nothing, or an unfinished debootstrap: start from scratch.
    note "provisioning Swift chroot at $ROOT from $mirror (log: $LOG)"
    if ! command -v debootstrap >/dev/null; then
      note "installing debootstrap"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >>"$LOG" 2>&1 ||
        { apt-get update -q >>"$LOG" 2>&1 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >>"$LOG" 2>&1; } ||
        die "cannot install debootstrap with apt-get (see $LOG)"
    fi
    # Fail early, and clearly, when the mirror cannot be reached.
    if command -v curl >/dev/null; then
      curl -fsS --max-time 30 -o /dev/null "$mirror/dists/$SUITE/Release" >>"$LOG" 2>&1 ||
        die "cannot reach the Debian mirror $mirror (no network?)"
    fi
    rm -rf --one-file-system "$ROOT" || die "cannot remove the unfinished chroot $ROOT"
    # An older debootstrap may not know trixie by name; its rules are sid's.
    script=/usr/share/debootstrap/scripts/$SUITE
    [[ -e $script ]] || script=/usr/share/debootstrap/scripts/sid
    note "debootstrap $SUITE (about a minute)"
    # In a mount namespace of its own, so the /proc etc. that debootstrap
    # mounts in the target can never be left behind if it is interrupted.
    unshare -m --propagation private -- \
      debootstrap --variant=minbase "$SUITE" "$ROOT" "$mirror" "$script" >>"$LOG" 2>&1 ||
      die "debootstrap $SUITE from $mirror failed (see $LOG)"
    # Keep apt lean in the chroot: no docs/manpages/translations.
    cat >"$ROOT/etc/dpkg/dpkg.cfg.d/01-symgen-nodoc" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
EOF
    echo 'Acquire::Languages "none";' >"$ROOT/etc/apt/apt.conf.d/99-symgen"
    date -u +%FT%TZ >"$BASE_MARKER"
  fi

  note "installing ${PACKAGES[*]} in the chroot (log: $LOG)"
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
  # `dpkg --configure -a` finishes an install that an earlier run left half done.
  # shellcheck disable=SC2016 # "$@" is expanded by the chroot's sh
  in_chroot "" / /bin/sh -c \
    'dpkg --configure -a && apt-get update -q && apt-get install -y -q --no-install-recommends "$@" && apt-get clean' \
    sh "${PACKAGES[@]}" >>"$LOG" 2>&1 ||
    die "installing ${PACKAGES[*]} in the chroot failed (see $LOG)"
  in_chroot "" / swift --version >>"$LOG" 2>&1 ||
    die "the chroot's swift does not run (see $LOG)"

  echo "$SPEC" >"$MARKER"
  note "Swift toolchain ready: $(in_chroot "" / swift --version 2>/dev/null | head -n 1)"
}

# Make sure the chroot is complete; cheap when it is.
ensure_chroot() {
  [[ -f $MARKER && "$(<"$MARKER")" == "$SPEC" ]] && return 0
  [[ $EUID -eq 0 ]] || die "no swift on PATH, and provisioning the Swift chroot needs root"
  local cmd
  for cmd in unshare chroot flock mount; do
    command -v "$cmd" >/dev/null || die "no swift on PATH, and '$cmd' is missing"
  done
  mkdir -p "$(dirname "$ROOT")" || die "cannot create $(dirname "$ROOT")"
  exec 9>"$LOCK" || die "cannot open lock file $LOCK"
  if ! flock -n 9; then
    note "waiting for another provisioning of $ROOT to finish"
    flock 9 || die "cannot lock $LOCK"
  fi
  # Someone else may have finished it while we waited.
  if [[ ! -f $MARKER || "$(<"$MARKER")" != "$SPEC" ]]; then
    rm -f "$MARKER"
    provision_locked
  fi
  exec 9>&-
}

# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------

main() {
  [[ $# -ge 1 ]] || usage
  case "$1" in
    __ns) shift; ns_main "$@" ;;
    --provision)
      [[ $# -eq 1 ]] || usage
      if command -v swift >/dev/null; then
        note "native swift on PATH: $(command -v swift); nothing to provision"
        exit 0
      fi
      ensure_chroot
      ;;
    -h | --help) usage ;;
    -*) usage ;;
    *)
      [[ $# -ge 2 ]] || usage
      local pkg
      pkg="$(cd "$1" 2>/dev/null && pwd -P)" || die "no such package directory: $1"
      shift
      if command -v swift >/dev/null; then
        cd "$pkg" && exec "$@"
      fi
      [[ $EUID -eq 0 ]] || die "no swift on PATH, and the Swift chroot needs root"
      ensure_chroot
      # Bind the whole repository (so tests may read files elsewhere in it
      # through #filePath), else just the package directory.
      local repo
      repo="$(git -C "$pkg" rev-parse --show-toplevel 2>/dev/null)" || repo="$pkg"
      repo="$(cd "$repo" && pwd -P)"
      [[ $repo != / && $repo != "$ROOT" && $repo != "$ROOT"/* ]] ||
        die "refusing to bind $repo into the chroot"
      exec unshare -m --propagation private -- "$BASH" "$SELF" __ns "$repo" "$pkg" "$@"
      ;;
  esac
}

main "$@"
