/**
 * Reading Arrow IPC files a user or a shared folder supplies (graph files, {@code samples.arrow}) as
 * hostile input: {@link heimdall.lab.arrow.ArrowInput} checks every block, row count and buffer against
 * the file and a memory bound before Arrow allocates for it, checks the schema before any batch is
 * read, and turns every failure into {@link heimdall.lab.BadInput} naming the file and column.
 *
 * <p>Uses: {@code heimdall.lab} only.
 */
package heimdall.lab.arrow;
