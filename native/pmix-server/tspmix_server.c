/* tspmix_server: the PMIx server of one node of a tsrun step (mpi/pmix).
 *
 * The step daemon starts one per node as `tspmix_server TMPDIR HOSTNAME` and talks to it over
 * stdin/stdout, one line per message (plugins/lib/pmix/helper-protocol.ts is the other side):
 *
 *   daemon -> helper                          helper -> daemon
 *                                             ready <pmix version>        (after PMIx_server_init)
 *   job NSPACE NODEID NODES RANKS             ok job                      (namespace registered)
 *   fork RANK                                 env RANK HEX                (setup_fork: KEY=VALUE\0...)
 *                                             connected RANK              (a client called PMIx_Init)
 *                                             fence SEQ HEX               (fence_nb: this node's blob)
 *   fence-done SEQ HEX | fence-fail SEQ                                   (every node's blobs, concatenated)
 *                                             finalized RANK              (a client called PMIx_Finalize)
 *                                             abort RANK STATUS HEX       (a client called PMIx_Abort)
 *   quit (or EOF)                             error TEXT                  (a request failed)
 *
 * NODES is the step's node names, comma-separated, by node id; RANKS the ranks of each node,
 * `0,1;2,3`. HEX is lowercase hex, `-` when empty. libpmix calls the upcalls below from its own
 * progress thread, so writes to stdout are serialised by a mutex, and the one pending fence
 * callback is handed from that thread to the main thread (which reads stdin) under a lock.
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t fence_lock = PTHREAD_MUTEX_INITIALIZER;
static pmix_modex_cbfunc_t fence_cb; /* the fence libpmix waits on, if any */
static void *fence_cbdata;
static unsigned long fence_seq;
static char nspace[PMIX_MAX_NSLEN + 1];
static char *tmpdir, *hostname;

/* One whole line to stdout: the daemon reads lines, and two threads write. */
static void emit(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out_lock);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

static char *hex_encode(const char *data, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *out = malloc(2 * n + 2);
    if (n == 0)
        return strcpy(out, "-");
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[(unsigned char)data[i] >> 4];
        out[2 * i + 1] = digits[(unsigned char)data[i] & 15];
    }
    out[2 * n] = '\0';
    return out;
}

static int nibble(char c)
{
    return c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0';
}

/* Decodes HEX ("-" or NULL: empty) into a malloc'd buffer; *n gets its length. */
static char *hex_decode(const char *hex, size_t *n)
{
    size_t len = (hex == NULL || strcmp(hex, "-") == 0) ? 0 : strlen(hex) / 2;
    char *out = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        out[i] = (char)(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    *n = len;
    return out;
}

/* --- waiting for libpmix's non-blocking calls ------------------------------------------ */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
} op_t;

static void op_done(pmix_status_t status, void *cbdata)
{
    op_t *op = cbdata;
    pthread_mutex_lock(&op->lock);
    op->status = status;
    op->done = 1;
    pthread_cond_signal(&op->cond);
    pthread_mutex_unlock(&op->lock);
}

/* rc is what the call returned: only PMIX_SUCCESS means "the callback will come". */
static pmix_status_t op_wait(op_t *op, pmix_status_t rc)
{
    if (rc == PMIX_OPERATION_SUCCEEDED)
        return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS)
        return rc;
    pthread_mutex_lock(&op->lock);
    while (!op->done)
        pthread_cond_wait(&op->cond, &op->lock);
    pthread_mutex_unlock(&op->lock);
    return op->status;
}

#define OP_INIT {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS}

/* --- upcalls from libpmix (its progress thread) ----------------------------------------- */

static pmix_status_t client_connected(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cb, void *cbdata)
{
    (void)obj, (void)cb, (void)cbdata;
    emit("connected %u\n", proc->rank);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t client_finalized(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cb, void *cbdata)
{
    (void)obj, (void)cb, (void)cbdata;
    emit("finalized %u\n", proc->rank);
    return PMIX_OPERATION_SUCCEEDED;
}

/* The client stays blocked in PMIx_Abort until we answer; the daemon kills the step. */
static pmix_status_t client_abort(const pmix_proc_t *proc, void *obj, int status, const char msg[],
                                  pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cb, void *cbdata)
{
    (void)obj, (void)procs, (void)nprocs, (void)cb, (void)cbdata;
    char *hex = hex_encode(msg ? msg : "", msg ? strlen(msg) : 0);
    emit("abort %u %d %s\n", proc->rank, status, hex);
    free(hex);
    return PMIX_OPERATION_SUCCEEDED;
}

/* Every local participant is in the fence: send this node's blob up and keep the callback
 * until the daemon sends every node's blobs back. Only whole-namespace fences are carried:
 * the daemon's fence joins every node of the step. */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                              char *data, size_t ndata, pmix_modex_cbfunc_t cb, void *cbdata)
{
    (void)info, (void)ninfo;
    if (nprocs != 1 || procs[0].rank != PMIX_RANK_WILDCARD || !PMIX_CHECK_NSPACE(procs[0].nspace, nspace))
        return PMIX_ERR_NOT_SUPPORTED;
    pthread_mutex_lock(&fence_lock);
    if (fence_cb != NULL) {
        pthread_mutex_unlock(&fence_lock);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    fence_cb = cb;
    fence_cbdata = cbdata;
    unsigned long seq = fence_seq++;
    pthread_mutex_unlock(&fence_lock);
    char *hex = hex_encode(data, ndata);
    emit("fence %lu %s\n", seq, hex);
    free(hex);
    return PMIX_SUCCESS;
}

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = client_abort,
    .fence_nb = fence_nb,
};

/* --- requests from the daemon (main thread) --------------------------------------------- */

static void release_blob(void *cbdata)
{
    free(cbdata);
}

static void fence_reply(int ok, const char *hex)
{
    pthread_mutex_lock(&fence_lock);
    pmix_modex_cbfunc_t cb = fence_cb;
    void *cbdata = fence_cbdata;
    fence_cb = NULL;
    pthread_mutex_unlock(&fence_lock);
    if (cb == NULL) {
        emit("error no fence is pending\n");
        return;
    }
    size_t n;
    char *blob = hex_decode(ok ? hex : NULL, &n);
    cb(ok ? PMIX_SUCCESS : PMIX_ERROR, blob, n, cbdata, release_blob, blob);
}

/* A comma-separated list ("0,1") as the number of its items. */
static int count_items(const char *list)
{
    int n = *list ? 1 : 0;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    return n;
}

/* The per-rank PMIX_PROC_DATA entry: what Open MPI asks about each peer. */
static void add_proc_data(void *job, pmix_rank_t rank, uint16_t lrank, uint32_t nodeid, const char *node)
{
    void *list = PMIx_Info_list_start();
    uint32_t appnum = 0;
    pmix_rank_t appldr = 0;
    PMIx_Info_list_add(list, PMIX_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_APP_RANK, &rank, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_APPNUM, &appnum, PMIX_UINT32);
    PMIx_Info_list_add(list, PMIX_APPLDR, &appldr, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_LOCAL_RANK, &lrank, PMIX_UINT16);
    PMIx_Info_list_add(list, PMIX_NODE_RANK, &lrank, PMIX_UINT16);
    PMIx_Info_list_add(list, PMIX_NODEID, &nodeid, PMIX_UINT32);
    PMIx_Info_list_add(list, PMIX_HOSTNAME, node, PMIX_STRING);
    pmix_data_array_t array;
    PMIx_Info_list_convert(list, &array);
    PMIx_Info_list_add(job, PMIX_PROC_DATA, &array, PMIX_DATA_ARRAY);
    PMIx_Info_list_release(list);
}

/* job NSPACE NODEID NODES RANKS: register the namespace with this node's view of the step. */
static pmix_status_t register_job(char *args)
{
    char *ns = strtok(args, " "), *nodeid_s = strtok(NULL, " "), *nodes = strtok(NULL, " "), *ranks = strtok(NULL, " ");
    if (!ns || !nodeid_s || !nodes || !ranks)
        return PMIX_ERR_BAD_PARAM;
    snprintf(nspace, sizeof nspace, "%s", ns);
    uint32_t nodeid = (uint32_t)atoi(nodeid_s), nnodes = 0, ntasks = 0;
    char *node_regex = NULL, *proc_regex = NULL;
    PMIx_generate_regex(nodes, &node_regex);
    PMIx_generate_ppn(ranks, &proc_regex);

    /* Split NODES and RANKS by node: name[i], peers[i] ("0,1"). */
    char *names[4096], *peers[4096], *save1, *save2;
    for (char *n = strtok_r(nodes, ",", &save1), *r = strtok_r(ranks, ";", &save2); n && r && nnodes < 4096;
         n = strtok_r(NULL, ",", &save1), r = strtok_r(NULL, ";", &save2)) {
        names[nnodes] = n;
        peers[nnodes++] = r;
        ntasks += (uint32_t)count_items(r);
    }
    if (nodeid >= nnodes)
        return PMIX_ERR_BAD_PARAM;
    uint32_t lsize = (uint32_t)count_items(peers[nodeid]), one = 1;
    pmix_rank_t leader = (pmix_rank_t)atoi(peers[nodeid]);
    bool no = false;

    void *job = PMIx_Info_list_start();
    PMIx_Info_list_add(job, PMIX_SPAWNED, &no, PMIX_BOOL);
    PMIx_Info_list_add(job, PMIX_JOBID, nspace, PMIX_STRING);
    PMIx_Info_list_add(job, PMIX_UNIV_SIZE, &ntasks, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_JOB_SIZE, &ntasks, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_MAX_PROCS, &ntasks, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_APP_SIZE, &ntasks, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_JOB_NUM_APPS, &one, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_NODE_MAP, node_regex, PMIX_REGEX);
    PMIx_Info_list_add(job, PMIX_PROC_MAP, proc_regex, PMIX_REGEX);
    PMIx_Info_list_add(job, PMIX_NODEID, &nodeid, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_HOSTNAME, names[nodeid], PMIX_STRING);
    PMIx_Info_list_add(job, PMIX_LOCAL_SIZE, &lsize, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_NODE_SIZE, &lsize, PMIX_UINT32);
    PMIx_Info_list_add(job, PMIX_LOCAL_PEERS, peers[nodeid], PMIX_STRING);
    PMIx_Info_list_add(job, PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    PMIx_Info_list_add(job, PMIX_TMPDIR, tmpdir, PMIX_STRING);
    for (uint32_t node = 0; node < nnodes; node++) {
        /* strtok_r over a copy: peers[] must stay intact for PMIX_LOCAL_PEERS above. */
        char *copy = strdup(peers[node]), *save;
        uint16_t lrank = 0;
        for (char *r = strtok_r(copy, ",", &save); r; r = strtok_r(NULL, ",", &save))
            add_proc_data(job, (pmix_rank_t)atoi(r), lrank++, node, names[node]);
        free(copy);
    }
    pmix_data_array_t info;
    PMIx_Info_list_convert(job, &info);
    PMIx_Info_list_release(job);
    op_t op = OP_INIT;
    pmix_status_t rc = op_wait(&op, PMIx_server_register_nspace(nspace, (int)lsize, info.array, info.size, op_done, &op));
    free(node_regex);
    free(proc_regex);
    return rc;
}

/* fork RANK: register the client and print the environment it must start with. */
static pmix_status_t setup_fork(const char *rank_s)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, (pmix_rank_t)atoi(rank_s));
    op_t op = OP_INIT;
    pmix_status_t rc = op_wait(&op, PMIx_server_register_client(&proc, getuid(), getgid(), NULL, op_done, &op));
    if (rc != PMIX_SUCCESS)
        return rc;
    char **env = calloc(1, sizeof(char *));
    if ((rc = PMIx_server_setup_fork(&proc, &env)) != PMIX_SUCCESS)
        return rc;
    size_t len = 0;
    for (char **e = env; *e; e++)
        len += strlen(*e) + 1;
    char *joined = malloc(len + 1), *p = joined;
    for (char **e = env; *e; e++) {
        p = stpcpy(p, *e) + 1; /* NUL-separated: values may hold anything but NUL */
        free(*e);
    }
    free(env);
    char *hex = hex_encode(joined, len ? len - 1 : 0);
    emit("env %u %s\n", proc.rank, hex);
    free(hex);
    free(joined);
    return PMIX_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tspmix_server TMPDIR HOSTNAME\n");
        return 2;
    }
    tmpdir = argv[1];
    hostname = argv[2];
    void *list = PMIx_Info_list_start();
    PMIx_Info_list_add(list, PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_HOSTNAME, hostname, PMIX_STRING);
    pmix_data_array_t info;
    PMIx_Info_list_convert(list, &info);
    PMIx_Info_list_release(list);
    pmix_status_t rc = PMIx_server_init(&module, info.array, info.size);
    if (rc != PMIX_SUCCESS) {
        emit("error PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    emit("ready %s\n", PMIx_Get_version());

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        char *arg = strchr(line, ' ');
        if (arg)
            *arg++ = '\0';
        if (strcmp(line, "job") == 0) {
            rc = register_job(arg ? arg : "");
            if (rc == PMIX_SUCCESS)
                emit("ok job\n");
            else
                emit("error job: %s\n", PMIx_Error_string(rc));
        } else if (strcmp(line, "fork") == 0 && arg) {
            if ((rc = setup_fork(arg)) != PMIX_SUCCESS)
                emit("error fork %s: %s\n", arg, PMIx_Error_string(rc));
        } else if (strcmp(line, "fence-done") == 0 && arg) {
            char *hex = strchr(arg, ' ');
            fence_reply(1, hex ? hex + 1 : NULL);
        } else if (strcmp(line, "fence-fail") == 0) {
            fence_reply(0, NULL);
        } else if (strcmp(line, "quit") == 0) {
            break;
        } else {
            emit("error unknown request: %s\n", line);
        }
    }
    free(line);
    PMIx_server_finalize();
    return 0;
}
