// SPDX-License-Identifier: GPL-2.0
/*
 * The sample file: one per process, written block by block under a lock,
 * so that any number of threads can end at the same time.  Formats are in
 * ../lwprof.h.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lwprof-lib.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct lwprof_thread *threads;
static int fd = -1;

void lwprof_log(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (!lwprof_cfg.verbose)
		return;
	n = snprintf(buf, sizeof(buf), "lwprof[%d]: ", getpid());
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		return;
}

static void write_all(const void *p, size_t len)
{
	while (len && fd >= 0) {
		ssize_t n = write(fd, p, len);

		if (n <= 0) {
			lwprof_log("cannot write the sample file");
			close(fd);
			fd = -1;
			return;
		}
		p = (const char *)p + n;
		len -= n;
	}
}

/*
 * LWPROF_OUT as is for the process the launcher started; any other
 * process (a fork, or an exec'd program inheriting the environment) adds
 * its pid, so that no process overwrites another's file.
 */
static void output_path(char *path, size_t size)
{
	const char *out = getenv(LWPROF_ENV_OUT);
	const char *main_pid = getenv(LWPROF_ENV_MAIN_PID);
	int has_pid;
	size_t n = 0;

	if (!out || !*out)
		out = LWPROF_DEFAULT_OUT;
	has_pid = strstr(out, "%p") != NULL;
	for (; *out && n + 12 < size; out++) {
		if (out[0] == '%' && out[1] == 'p') {
			n += snprintf(path + n, size - n, "%d", getpid());
			out++;
		} else {
			path[n++] = *out;
		}
	}
	path[n] = 0;
	if (main_pid && atoi(main_pid) != getpid() && !has_pid)
		snprintf(path + n, size - n, ".%d", getpid());
}

int lwprof_output_open(void)
{
	struct lwprof_file_header h;
	char path[4096];
	ssize_t n;

	if (fd >= 0)
		close(fd);
	output_path(path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "lwprof: cannot create %s: %m\n", path);
		return -1;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, LWPROF_MAGIC, sizeof(h.magic));
	h.pid = getpid();
	h.drain = LWPROF_DRAIN_NONE;
	if (lwprof_cfg.lwp_ok)
		h.drain = lwprof_self ? lwprof_self->drain : LWPROF_DRAIN_NONE;
	h.interval = lwprof_cfg.interval;
	h.ring_records = lwprof_cfg.ring_records;
	h.timer_us = lwprof_cfg.timer_us;
	h.run_id = lwprof_cfg.run_id;
	snprintf(h.no_lwp, sizeof(h.no_lwp), "%s",
		 lwprof_cfg.no_lwp ? lwprof_cfg.no_lwp : h.drain ? "" : "the thread could not arm it");
	n = readlink("/proc/self/exe", h.exe, sizeof(h.exe) - 1);
	if (n < 0)
		h.exe[0] = 0;
	write_all(&h, sizeof(h));
	lwprof_log("writing %s", path);
	return 0;
}

/* Every lock holder blocks the ending handler's signals: it takes the lock. */
void lwprof_register_thread(struct lwprof_thread *t)
{
	sigset_t old;

	lwprof_block_signals(&old);
	pthread_mutex_lock(&lock);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* After fork: the parent's threads are the parent's to report. */
void lwprof_forget_threads(void)
{
	threads = NULL;
	pthread_mutex_init(&lock, NULL);
}

/* A thread that has not ended has not read its name yet: its /proc entry. */
static void read_comm(struct lwprof_thread *t)
{
	char path[64];
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return;
	n = read(f, t->comm, sizeof(t->comm) - 1);
	close(f);
	if (n > 0 && t->comm[n - 1] == '\n')
		n--;
	t->comm[n > 0 ? n : 0] = 0;
}

static void write_thread(struct lwprof_thread *t)
{
	struct lwprof_block b = { .type = LWPROF_BLOCK_THREAD };
	struct lwprof_thread_info info;
	struct lwprof_chunk *c, *next;
	uint64_t total = 0, left;

	/*
	 * A thread that still runs may still add samples: count them once,
	 * then write that many (only the last chunk grows, and it only grows).
	 */
	for (c = t->first; c; c = c->next)
		total += __atomic_load_n(&c->used, __ATOMIC_ACQUIRE);
	if (!t->comm[0])
		read_comm(t);
	memset(&info, 0, sizeof(info));
	info.tid = t->tid;
	info.complete = t->done;
	info.nr_samples = total;
	info.missed = t->missed;
	info.signals = t->signals;
	info.drains = t->drains;
	info.lost = t->lost;
	memcpy(info.comm, t->comm, sizeof(info.comm));
	b.size = sizeof(info) + total * sizeof(struct lwprof_sample);
	write_all(&b, sizeof(b));
	write_all(&info, sizeof(info));
	left = total;
	for (c = t->first; c && left; c = c->next) {
		uint64_t n = c->used < left ? c->used : left;

		write_all(c->s, n * sizeof(struct lwprof_sample));
		left -= n;
	}
	t->written = 1;
	if (!info.complete)
		return;		/* its handler may still use the chunks */
	for (c = t->first; c; c = next) {
		next = c->next;
		munmap(c, LWPROF_CHUNK_BYTES);
	}
	t->first = t->last = NULL;
}

/* With lwprof_block_signals' signals blocked, as all that follows. */
void lwprof_output_thread(struct lwprof_thread *t)
{
	pthread_mutex_lock(&lock);
	if (!t->written)
		write_thread(t);
	pthread_mutex_unlock(&lock);
}

static int write_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct lwprof_block b = { .type = LWPROF_BLOCK_MODULE };
	struct lwprof_module m = { .bias = info->dlpi_addr, .start = UINT64_MAX };
	static const char zeros[8];
	char exe[4096];
	const char *name = info->dlpi_name;
	size_t len;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < m.start)
			m.start = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > m.end)
			m.end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	/* the main program comes first, without a name */
	if (!name || !*name) {
		if (*(int *)arg)
			return 0;
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		exe[n < 0 ? 0 : n] = 0;
		name = exe;
	}
	*(int *)arg = 1;
	len = strlen(name) + 1;
	b.size = sizeof(m) + (len + 7) / 8 * 8;
	write_all(&b, sizeof(b));
	write_all(&m, sizeof(m));
	write_all(name, len);
	write_all(zeros, (len + 7) / 8 * 8 - len);
	return 0;
}

/* The threads not yet written, the modules, the end mark; lock held. */
static void finish(int sig)
{
	struct lwprof_end end = { .signal = sig };
	struct lwprof_block b = { .type = LWPROF_BLOCK_END, .size = sizeof(end) };
	struct lwprof_thread *t;
	int seen_exe = 0;

	for (t = threads; t; t = t->next)
		if (!t->written)
			write_thread(t);
	dl_iterate_phdr(write_module, &seen_exe);
	write_all(&b, sizeof(b));
	write_all(&end, sizeof(end));
	if (fd >= 0)
		close(fd);
	fd = -1;
}

/* At process exit (sig 0). */
void lwprof_output_finish(int sig)
{
	pthread_mutex_lock(&lock);
	finish(sig);
	pthread_mutex_unlock(&lock);
}

/*
 * From the ending handler, in a thread that holds no lock (they all block
 * its signal while they do): every other thread that still runs with LWP
 * is asked to drain its ring, and has up to 200 ms to do it (a thread that
 * blocks the drain signal, because it is ending itself, is not waited for
 * longer), then the file is finished.
 */
void lwprof_output_interrupted(int sig)
{
	struct timespec ms = { 0, 1000000 };
	struct lwprof_thread *t;
	int waiting = 1;

	pthread_mutex_lock(&lock);
	for (t = threads; t; t = t->next) {
		t->asked = 0;
		if (t == lwprof_self || !t->armed)
			continue;
		t->asked = __atomic_load_n(&t->signals, __ATOMIC_ACQUIRE) + 1;
		if (syscall(SYS_tgkill, getpid(), t->tid, lwprof_cfg.sig) != 0)
			t->asked = 0;
	}
	for (int i = 0; i < 200 && waiting; i++) {
		waiting = 0;
		for (t = threads; t; t = t->next)
			if (t->asked && t->armed &&
			    __atomic_load_n(&t->signals, __ATOMIC_ACQUIRE) < t->asked)
				waiting = 1;
		if (waiting)
			nanosleep(&ms, NULL);
	}
	finish(sig);
	pthread_mutex_unlock(&lock);
}
