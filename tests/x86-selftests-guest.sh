#!/bin/sh
# Runs inside the VM: every built x86 selftest but lwp_test, one result line
# each.  A hung test is stopped so that the others still run.
for t in /tests/*_64; do
	name=${t##*/}
	[ "$name" = lwp_test_64 ] && continue
	timeout 30 "$t" >/tmp/out 2>&1
	echo "SELFTEST $name $?"
	# the failed cases, wherever they are, then the end
	{ grep -E '^not ok|\[FAIL\]' /tmp/out | head -n 10; tail -n 5 /tmp/out; } | sed 's/^/  | /'
done
