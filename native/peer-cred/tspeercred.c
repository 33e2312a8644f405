/*
 * tspeercred: prints the credentials of the peer of the Unix socket on fd 3 as
 * "uid gid pid\n" (SO_PEERCRED), for tsrestd, which serves its local socket to users
 * identified by their uid as slurmrestd's rest_auth/local does; Node has no call for it.
 * Exit status 0 on success, 1 when fd 3 is not a connected Unix socket.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

int main(void)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(3, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof(cred)) {
		perror("tspeercred: getsockopt(SO_PEERCRED)");
		return 1;
	}
	printf("%u %u %d\n", (unsigned)cred.uid, (unsigned)cred.gid, (int)cred.pid);
	return 0;
}
