# Shared by ./run and .ci/run (source it from the repository root): the system packages of
# iaa_desktop/resources/system-packages.txt, and the Python environment in .venv.
#
#   iaa_preflight WINDOW         before pip (./run): as root, install the system packages of the
#                                window (WINDOW=1) and the report, Xvfb too when there is no
#                                display; then ask iaa_desktop/preflight.py (Python version, venv
#                                module, the window's packages, a display): everything missing
#                                in one message with one install line, exit 2
#   iaa_system_packages ROLE...  install the missing packages needed by ROLE (setup, qt, report,
#                                ci) with apt-get when running as root; otherwise name them and
#                                the command that installs them (returns 1 if any is missing)
#   iaa_venv [EXTRA]             create .venv once and install the package (with EXTRA); pip runs
#                                only when pyproject.toml, the Python or EXTRA changed
#   iaa_note_missing PACKAGES    say once (not on every run) which optional packages are missing

IAA_PACKAGE_LIST=iaa_desktop/resources/system-packages.txt

_iaa_ldconfig() {
  local lc
  lc=$(command -v ldconfig || true)
  [ -n "$lc" ] || lc=/sbin/ldconfig
  "$lc" -p 2>/dev/null | awk 'NR > 1 { print $1 }'
}

_iaa_present() { # CHECK[,CHECK...] -> 0 if every one is present
  local kind=${1%%:*} what=${1#*:}
  case $1 in *,*) _iaa_present "${1%%,*}" && _iaa_present "${1#*,}"; return ;; esac
  case $kind in
    lib) grep -qxF "$what" <<<"$_IAA_LIBS" ;;
    file) [ -e "$what" ] ;;
    cmd) command -v "$what" >/dev/null 2>&1 ;;
    py) command -v "${PYTHON:-python3}" >/dev/null 2>&1 &&
          "${PYTHON:-python3}" -c "import $what" >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

iaa_missing_packages() { # ROLE... -> the missing packages, one per line
  _IAA_LIBS=$(_iaa_ldconfig)
  local pkg check role want
  while read -r pkg check role; do
    case $pkg in ''|'#'*) continue ;; esac
    for want in "$@"; do
      if [ "$role" = "$want" ] && ! _iaa_present "$check"; then echo "$pkg"; fi
    done
  done <"$IAA_PACKAGE_LIST"
}

_iaa_install_command() { # PACKAGES... -> the one command that installs them
  if [ "$(id -u)" = 0 ]; then echo "apt-get install $*"
  elif command -v sudo >/dev/null 2>&1; then echo "sudo apt-get install $*"
  else echo "su -c 'apt-get install $*'"; fi
}

_iaa_apt_install() { # PACKAGES... (as root): quietly; apt's whole output only if it fails
  local log
  log=$(mktemp)
  echo "installing system packages: $*" >&2
  # shellcheck disable=SC2068
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $@; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

iaa_system_packages() { # ROLE...
  local missing
  missing=$(iaa_missing_packages "$@" | sort -u | tr '\n' ' ')
  missing=${missing% }
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    _iaa_apt_install $missing
    return
  fi
  echo "These system packages are missing: $missing" >&2
  echo "  install them with:  $(_iaa_install_command "$missing")" >&2
  return 1
}

iaa_preflight() { # WINDOW (1: the window will open; 0: report, gold ...) -> report's missing
  local py=${PYTHON:-python3} roles="setup report"
  [ "$1" = 1 ] && roles="setup qt report"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    iaa_system_packages $roles || return 2
    if [ "$1" = 1 ] && [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && ! command -v xvfb-run >/dev/null; then
      _iaa_apt_install xvfb xauth || return 2 # so that `xvfb-run ./run` works on a bare server
    fi
  fi
  if ! command -v "$py" >/dev/null 2>&1; then
    echo "iaa-desktop: cannot start yet: $py is missing (set PYTHON=/path/to/python3.11)." >&2
    return 2
  fi
  if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 7))' 2>/dev/null; then # too old to ask
    echo "iaa-desktop: cannot start yet: iaa_desktop needs Python 3.11 or later, and $py is" \
      "$("$py" -V 2>&1) (install one with \`uv python install 3.11\`, or on Ubuntu from the" \
      "deadsnakes PPA, and run \`PYTHON=python3.11 ./run\`)." >&2
    return 2
  fi
  "$py" -m iaa_desktop.preflight --setup $([ "$1" = 1 ] || echo --no-window)
}

iaa_note_missing() { # PACKAGES (space-separated; empty: nothing missing)
  local note=.venv/.iaa-noted-missing
  if [ -z "$1" ]; then rm -f "$note"; return 0; fi
  [ -f "$note" ] && [ "$(cat "$note")" = "$1" ] && return 0
  echo "note: PDF reports need these system packages: $1 (everything else works without them);" \
    "install them with:  $(_iaa_install_command "$1")" >&2
  echo "$1" >"$note"
}

iaa_venv() { # [EXTRA]
  local extra=${1:-} py=${PYTHON:-python3} target stamp want
  if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "iaa_desktop needs Python 3.11 or later ($py is $("$py" -V 2>&1 || echo missing));" \
      "set PYTHON=/path/to/python3.11" >&2
    return 1
  fi
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    rm -rf .venv # a half-made environment (no pip) is made again
    "$py" -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
  fi
  stamp=.venv/.iaa-installed
  want="$(sha256sum pyproject.toml | cut -d' ' -f1) $(.venv/bin/python -V 2>&1 | tr ' ' _) $PWD"
  # an extra already installed with this pyproject.toml serves: "test" includes everything
  if [ -f "$stamp" ] && grep -qxF "$want ${extra:-base}" "$stamp" ||
    { [ -z "$extra" ] && [ -f "$stamp" ] && grep -q "^$want " "$stamp"; }; then
    return 0
  fi
  target=.
  [ -n "$extra" ] && target=".[$extra]"
  echo "installing iaa_desktop${extra:+ with [$extra]} into .venv (once; again only when pyproject.toml changes)"
  # setuptools' ten-line box about editable installs is for packagers, not for this first run
  PYTHONWARNINGS="ignore:Editable installation" .venv/bin/python -m pip install -q -e "$target" 2>&1 |
    grep -v "^WARNING: Location" || true
  # found, not imported: Qt's system libraries may still be missing for `./run report`
  .venv/bin/python -c "import importlib.util as u, iaa_desktop; assert u.find_spec('PySide6')" || return 1
  { grep "^$want " "$stamp" 2>/dev/null || true; echo "$want ${extra:-base}"; } >"$stamp.new"
  mv "$stamp.new" "$stamp"
}
