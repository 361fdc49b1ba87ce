# Shared by ./run and .ci/run (source it from the repository root): the system packages of
# iaa_desktop/resources/system-packages.txt, and the Python environment in .venv.
#
#   iaa_system_packages ROLE...  install the missing packages needed by ROLE (setup, qt, report,
#                                ci) with apt-get when running as root; otherwise name them and
#                                the command that installs them (returns 1 if any is missing)
#   iaa_venv [EXTRA]             create .venv once and install the package (with EXTRA); pip runs
#                                only when pyproject.toml, the Python or EXTRA changed
#   iaa_qt_libraries             ask the dynamic linker which libraries Qt's xcb plugin still
#                                lacks (returns 1 and names them with their packages if any)

IAA_PACKAGE_LIST=iaa_desktop/resources/system-packages.txt

_iaa_ldconfig() {
  local lc
  lc=$(command -v ldconfig || true)
  [ -n "$lc" ] || lc=/sbin/ldconfig
  "$lc" -p 2>/dev/null | awk 'NR > 1 { print $1 }'
}

_iaa_present() { # CHECK -> 0 if present
  local kind=${1%%:*} what=${1#*:}
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

iaa_system_packages() { # ROLE...
  local missing
  missing=$(iaa_missing_packages "$@" | sort -u | tr '\n' ' ')
  missing=${missing% }
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing system packages: $missing"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    return 0
  fi
  echo "These system packages are missing: $missing" >&2
  echo "  install them with:  sudo apt-get install $missing" >&2
  return 1
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
  .venv/bin/python -m pip install -q -e "$target" 2>&1 | grep -v "^WARNING: Location" || true
  .venv/bin/python -c "import iaa_desktop, PySide6" || return 1
  { grep "^$want " "$stamp" 2>/dev/null || true; echo "$want ${extra:-base}"; } >"$stamp.new"
  mv "$stamp.new" "$stamp"
}

iaa_qt_libraries() {
  .venv/bin/python -m iaa_desktop.gui.display --check-libraries
}
