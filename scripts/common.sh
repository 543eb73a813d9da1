# Shared settings for the harness scripts; sourced, never run.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${LWP_BUILD:-$ROOT/build}
CACHE=${LWP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lwp}
PROG=$(basename "$0")

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$ROOT
export CCACHE_COMPILERCHECK=content
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

# one_cpp: for the builds whose warnings cannot fail them (the test
# kernels; QEMU, configured with --disable-werror), ccache compiles the
# text it preprocessed to hash a file instead of preprocessing a missed
# file again: a cold test-config kernel took 179 s instead of 218 s on two
# cores.  Not for perf or the lint stage's sparse and W=1 builds: given
# preprocessed text the compiler no longer knows what came from a macro,
# and warns where it did not (perf's -Werror build failed on -Waddress in
# annotate.h).  Nor ccache's depend mode (158 s), which never preprocesses
# and so never sees an .incbin: kbuild's piggy.o, which holds the
# compressed kernel, came from the cache whenever piggy.S (the blob's sizes
# only) was as before, and a mutant kernel booted the series' code.
one_cpp() {
	export CCACHE_NOCPP2=1
}

# checkpatch calls python3; a pyenv python on PATH may lack ply.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

note() {
	echo "$PROG: $*" >&2
}

# Read KEY=VALUE from a config file without sourcing it.
conf() {
	local file=$1 key=$2 val
	val=$(sed -n "s/^$key=//p" "$file")
	[ -n "$val" ] || die "$file has no $key"
	echo "$val"
}

# Fixed identity and dates so that the generated base commits are
# reproducible: the cover letter's base-commit is the same on any machine.
base_commit_env() {
	export GIT_AUTHOR_NAME="LWP harness" GIT_AUTHOR_EMAIL="harness@localhost"
	export GIT_COMMITTER_NAME="LWP harness" GIT_COMMITTER_EMAIL="harness@localhost"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
}

# The sources the harness knows, by name: "kernel" is the series against
# the newest base, "kernel-6.12" its LTS backport, "qemu" the emulator.
# src_dir NAME: where its base.conf and series/ are; tree_dir NAME: its
# generated git tree.
src_dir() {
	case $1 in
	kernel | qemu) echo "$ROOT/$1" ;;
	kernel-6.12) echo "$ROOT/kernel/6.12" ;;
	*) die "unknown source '$1' (expected kernel, kernel-6.12 or qemu)" ;;
	esac
}

tree_dir() {
	case $1 in
	kernel) echo "$BUILD/linux" ;;
	kernel-6.12) echo "$BUILD/linux-6.12" ;;
	qemu) echo "$BUILD/qemu-src" ;;
	*) die "unknown source '$1' (expected kernel, kernel-6.12 or qemu)" ;;
	esac
}

# series_patches DIR: the patches of a series directory, in order, without
# the cover letter
series_patches() { grep -v '^0000-' "$1/series" | sed "s|^|$1/|"; }

# patch_files PATCH...: the files the patches touch; with --new, only the
# files they create
patch_files() {
	local new=0
	[ "$1" != --new ] || { new=1; shift; }
	awk -v new=$new '/^diff --git / { f = substr($4, 3); if (!new) print f }
		new && /^new file mode/ { print f }' "$@"
}

# only_touches REGEX PATCH: every file the patch touches matches REGEX
only_touches() {
	! patch_files "$2" | grep -v -E "$1" >/dev/null
}

# Files of the kernel series that no kernel build reads: the selftests
# (which build-kernel builds apart), the perf tool, the documentation.  Not
# all of tools/: a kernel build compiles objtool from tools/ and its headers.
KERNEL_UNBUILT='^(Documentation/|MAINTAINERS$|tools/testing/|tools/perf/)'

# only_unbuilt PATCH: the patch touches only files that no kernel build
# reads, so a tree with it builds exactly as the one without.
only_unbuilt() { only_touches "$KERNEL_UNBUILT" "$1"; }

# patch_body PATCH...: the patches' content as a build sees it, without the
# commit ids, dates, numbering ([PATCH n/m]) and blob ids that change when
# the series is exported or another patch is added or edited
patch_body() {
	sed -e '/^From [0-9a-f]\{40\} /d' -e '/^Date: /d' \
		-e 's/^\(Subject: \[PATCH\)[^]]*\]/\1]/' \
		-e '/^index [0-9a-f]*\.\.[0-9a-f]*/d' "$@"
}

# patch_code [-x REGEX] PATCH...: what a build reads of the patches: their
# diffs, without the commit messages and blob ids, and with -x without the
# files whose path matches REGEX (files the build does not read).  A reworded
# commit message or an edited test then rebuilds nothing.
patch_code() {
	local skip=""
	[ "$1" != -x ] || { skip=$2; shift 2; }
	awk -v skip="$skip" 'FNR == 1 { keep = 0 }
		/^diff --git / { keep = skip == "" || substr($4, 3) !~ skip }
		keep && !/^index [0-9a-f]+\.\.[0-9a-f]+/' "$@"
}

# Files of the QEMU series that no build of the emulator reads: its x86 TCG
# tests (which the harness builds itself) and the documentation
QEMU_UNBUILT='^(tests/tcg/(x86_64|i386)/|docs/|MAINTAINERS$)'

# qemu_configure SRC OBJ: configure OBJ to build the two x86_64 targets of
# the QEMU source SRC, with the flags of qemu-notes.md section 1 and
# Debian's firmware path.  Debian's source has no python/wheels: configure
# must find a meson >= 1.5 (Debian's package, see install-deps) with the
# system Python, and its pc-bios lacks the blobs not built from source.
qemu_configure() {
	mkdir -p "$2"
	(cd "$2" && "$1/configure" --python=/usr/bin/python3 --disable-install-blobs \
		--target-list=x86_64-softmmu,x86_64-linux-user --enable-plugins \
		--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu \
		--cc="ccache gcc" --cxx="ccache g++" \
		--disable-docs --disable-werror --without-default-features --enable-tcg \
		--enable-fdt=system --disable-gtk --disable-sdl --disable-spice --disable-vnc \
		--disable-opengl --disable-virglrenderer --disable-curses --disable-xen \
		--disable-kvm --disable-tools --disable-guest-agent --disable-capstone \
		--disable-slirp) >"$2/configure.log" 2>&1
}

# The identity of a series directory's content, recorded in a generated tree
# to tell whether the tree holds exactly that series.
series_hash() {
	cat "$1"/series "$1"/*.patch 2>/dev/null | sha256sum | cut -d' ' -f1
}

# fragment_options FRAGMENT...: the options the config fragments set,
# "# CONFIG_X is not set" lines included, without their comments
fragment_options() {
	grep -hE '^(CONFIG_|# CONFIG_[A-Za-z0-9_]+ is not set$)' "$@"
}

# fragments_survived OBJ FRAGMENT...: dies unless OBJ/.config sets every
# option as the fragments do, "# CONFIG_X is not set" ones too: a silently
# dropped option, or one that something selects back on, would test
# something else than intended.
fragments_survived() {
	local obj=$1 f line opt
	shift
	for f; do
		while read -r line; do
			if [[ $line == CONFIG_* ]]; then
				grep -qx "$line" "$obj/.config"
			else
				opt=${line#"# "}
				! grep -q "^${opt% is not set}=" "$obj/.config"
			fi || die "config option '$line' from ${f#"$ROOT"/} did not survive olddefconfig"
		done < <(fragment_options "$f")
	done
}

# kernel_config SRC OBJ tiny|kvm: tinyconfig merged with the fragments in
# kernel/config, insisting that every option survived olddefconfig.
kernel_config() {
	local src=$1 obj=$2 frags=("$ROOT/kernel/config/tiny.fragment")
	[ "$3" = tiny ] || frags+=("$ROOT/kernel/config/kvm-ia32.fragment")
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
	fragments_survived "$obj" "${frags[@]}"
}

# kernel_variant_source VARIANT: the source (see src_dir) a kernel variant
# is built from: the LTS backport for lts, else the series on the newest base
kernel_variant_source() {
	if [ "$1" = lts ]; then echo kernel-6.12; else echo kernel; fi
}

# kernel_variant_patch VARIANT: the patch a kernel variant adds on top of
# the series (nothing for patched, base and lts, the LTS backport); dies
# for an unknown variant.
kernel_variant_patch() {
	case $1 in
	patched | base | lts) ;;
	fallback) echo "$ROOT/bench/rdmsr-fallback.patch" ;;
	mutant:?*)
		[ -f "$ROOT/tests/mutants/${1#mutant:}.patch" ] ||
			die "unknown mutant '${1#mutant:}' (no tests/mutants/${1#mutant:}.patch)"
		echo "$ROOT/tests/mutants/${1#mutant:}.patch"
		;;
	*) die "unknown kernel '$1' (expected patched, base, lts, fallback or mutant:NAME)" ;;
	esac
}

# kernel_variant_extra VARIANT: kernel_variant_patch, knowing also the
# variants that differ from the series only in their config (debug: the
# series with kernel/config/debug.fragment); dies for an unknown variant.
kernel_variant_extra() {
	case $1 in
	debug) ;;
	patched | base | lts | fallback | mutant:*) kernel_variant_patch "$1" ;;
	*) die "unknown kernel '$1' (expected patched, base, lts, fallback, debug or mutant:NAME)" ;;
	esac
}

# kernel_variant_fragments VARIANT: the config fragments the variant adds to
# the test config: lock and atomic-context checking for debug and for the
# mutants whose file says "CONFIG: debug" (bugs that only those checks see)
kernel_variant_fragments() {
	if [ "$1" = debug ] || { [ "${1#mutant:}" != "$1" ] &&
		grep -qx 'CONFIG: debug' "$ROOT/tests/mutants/${1#mutant:}.patch"; }; then
		echo "$ROOT/kernel/config/debug.fragment"
	fi
}

# kernel_config_add SRC OBJ FRAGMENT...: merge more fragments into a config
# that kernel_config made, insisting as it does that every line survived.
kernel_config_add() {
	local src=$1 obj=$2
	shift 2
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
	fragments_survived "$obj" "$ROOT/kernel/config/tiny.fragment" "$@"
}

# migrate_on TEXT FILE STATE QEMU [ARGS...]: run QEMU with a monitor on
# two FIFOs next to STATE, which QEMU opens read-write, as this does its
# input (so that neither waits for the other, and a write never finds no
# reader).  Once FILE, where the guest's output goes, has a line with
# TEXT, migrate the machine to the file STATE, live (a machine stopped
# first would stay stopped in the QEMU that takes it), and quit: HMP's
# migrate returns when the migration has completed.  Returns QEMU's
# status; the monitor's output is in STATE.monitor.log.
migrate_on() {
	local text=$1 file=$2 state=$3 qemu_pid mon_pid fd rc=0
	shift 3
	mkfifo "$state.mon.in" "$state.mon.out"
	"$@" -monitor "pipe:$state.mon" &
	qemu_pid=$!
	cat "$state.mon.out" >"$state.monitor.log" &
	mon_pid=$!
	exec {fd}<>"$state.mon.in"
	while kill -0 "$qemu_pid" 2>/dev/null && ! grep -qF -- "$text" "$file" 2>/dev/null; do
		sleep 0.1
	done
	printf 'migrate file:%s\nquit\n' "$state" >&"$fd"
	wait "$qemu_pid" || rc=$?
	exec {fd}>&-
	kill "$mon_pid" 2>/dev/null || true
	rm -f "$state.mon.in" "$state.mon.out"
	return $rc
}

# tcg_config DIR SRC TARGET: in DIR, what QEMU's configure writes for
# check-tcg for one target, the tests being those of the QEMU source SRC
# (our own copy: a build served from the cache has no configured object
# tree).  No plugins: only the run-TEST rules are used.  DIR's parent
# gets the config-host.mak.
tcg_config() {
	mkdir -p "$1"
	printf 'SRC_PATH=%s\nCONFIG_PLUGIN=n\n' "$2" >"$(dirname "$1")/config-host.mak"
	{
		echo "TARGET_NAME=x86_64"
		echo "TARGET=$3"
		echo "EXTRA_CFLAGS=-m64 -mcx16"
		echo "CC=gcc"
		echo "CCAS=gcc"
		[ "$3" != x86_64-linux-user ] || echo "BUILD_STATIC=y"
	} >"$1/config-target.mak"
	ln -sfn "$2/tests/tcg/Makefile.target" "$1/Makefile"
}

# run_job FILE COMMAND...: COMMAND's output (stdout and stderr) in FILE,
# its exit status in FILE.rc
run_job() {
	local f=$1
	shift
	"$@" >"$f" 2>&1 && echo 0 >"$f.rc" || echo $? >"$f.rc"
}

# Independent runs of a stage (VMs, test binaries) go side by side, one per
# host CPU: under TCG each runs on about one.  bg_job FILE COMMAND...:
# run_job in the background, once fewer than LWP_JOBS jobs are running; the
# caller collects them with `wait`.
LWP_JOBS=${LWP_JOBS:-$(nproc)}
bg_job() {
	while [ "$(jobs -pr | wc -l)" -ge "$LWP_JOBS" ]; do
		wait -n || true
	done
	run_job "$@" &
}
