# LWP for Linux: build, boot and test harness.  `make help` lists targets.

SHELL := /bin/bash
S := scripts

.PHONY: help run check lint lint-full deps qemu kernel shell bench \
	kernel-tree kernel-export qemu-tree qemu-export \
	kernel-post kernel-6.12-post qemu-post

help:
	@echo "make run            build everything, boot the patched kernel on an emulated"
	@echo "                    LWP CPU, run lwp_test and the profiling demo"
	@echo "make check          every test suite; ends with 'N passed, N failed'"
	@echo "make lint           checkpatch, per-patch builds (test config), sparse/W=1"
	@echo "                    with the test config and with KVM + IA32 (part of check)"
	@echo "make lint-full      lint, and every kernel patch also built with KVM + IA32,"
	@echo "                    every QEMU patch built on its own (long)"
	@echo "make bench          context-switch and emulator benchmarks (long)"
	@echo "make shell          boot the patched kernel on the LWP CPU with a shell"
	@echo "make kernel-tree    build/linux: the pinned base with kernel/series applied"
	@echo "make kernel-export  write build/linux's commits back to kernel/series"
	@echo "make qemu-tree, make qemu-export   the same for QEMU (build/qemu-src)"
	@echo "make kernel-post    build/post/kernel: kernel/series signed with your git"
	@echo "                    user.name/user.email, checkpatch and get_maintainer run"
	@echo "make qemu-post, make kernel-6.12-post   the same for QEMU, the 6.12 backport"

deps:
	@$(S)/install-deps

run: deps
	@$(S)/run-demo

check: deps
	@$(S)/check

lint: deps
	@$(S)/check lint

lint-full: deps
	@$(S)/lint-kernel --full && $(S)/lint-qemu --full

bench: deps
	@$(S)/bench

qemu: deps
	@$(S)/build-qemu patched

kernel: deps
	@$(S)/build-kernel patched

shell: qemu kernel
	@$(S)/vm --shell

kernel-tree qemu-tree: deps
	@$(S)/make-tree $(@:-tree=)

kernel-export qemu-export:
	@$(S)/export-series $(@:-export=)

kernel-post kernel-6.12-post qemu-post: deps
	@$(S)/post-series $(@:-post=)
