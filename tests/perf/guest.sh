#!/bin/sh
# Runs in the VM (tests/perf/run): perf records the workload, /prog/mix,
# with EVENT every PERIOD, then shows its profile by symbol and its samples
# counted by thread and symbol, and for an lwp event what perf says of the
# events the PMU refuses, each part after a line "== NAME" for the host to
# check.  Status 4 (skip) when the event is an lwp one and the
# kernel has no lwp PMU.
#
#   guest.sh EVENT PERIOD
ev=$1 period=$2
case $ev in
lwp/*)
	if [ ! -d /sys/bus/event_source/devices/lwp ]; then
		echo "== no lwp PMU (no /sys/bus/event_source/devices/lwp)"
		exit 4
	fi
	;;
esac
echo "== record"
# 4 MB a CPU, eight times perf's default: the three threads keep both
# vCPUs busy, and on a loaded host perf then reads the ring late (140,000
# samples are 4 MB); with the default it lost a chunk now and then
perf record -m 4M -e "$ev" -c "$period" -o /tmp/perf.data -- mix 2>&1 || exit
echo "== report"
# through a file: on the console perf would color the lines
perf report -i /tmp/perf.data --stdio --sort sym >/tmp/report 2>&1 || { cat /tmp/report; exit 1; }
cat /tmp/report
echo "== script"
# one line per thread and function, "COUNT COMM TID SYMBOL" (the address
# dropped): a line per sample would be megabytes through the serial port
perf script -i /tmp/perf.data -F comm,tid,ip,sym >/tmp/script 2>/tmp/err || { cat /tmp/err; exit 1; }
awk '{ print $1, $2, $4 }' /tmp/script | sort | uniq -c
# and what perf warned about (events out of order, say)
sed 's/^/perf script: /' /tmp/err
case $ev in
lwp/*)
	# what the lwp PMU refuses, and what perf says about it
	echo "== refused"
	for cmd in "stat -e $ev" "record -a -e $ev -c $period" "record -g -e $ev -c $period" \
		"record -e $ev -c 100"; do
		perf $cmd -o /tmp/refused.data -- true >/tmp/refused 2>&1
		echo "-- perf $cmd: status $?"
		grep -v '^$' /tmp/refused
	done
	;;
esac
