// SPDX-License-Identifier: GPL-2.0
/* A static guest program with a known output and exit status. */
#include <stdio.h>

int main(int argc, char **argv)
{
	printf("exit42: %d args, last '%s'\n", argc - 1, argv[argc - 1]);
	return 42;
}
