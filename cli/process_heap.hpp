// The executable's heap: glibc's malloc set up once, at the start of main(), for a
// process that builds large tables, formulas and solver states and drops them again
// (the library leaves the allocator of the programs it is linked into alone).
#pragma once

namespace ariadne::cli {

// Keeps freed memory in the process and asks the kernel to back the main heap with
// transparent huge pages. A core's formula and solver state, tens of megabytes,
// otherwise fault in page by page, zeroed, each time a block is mapped anew: one
// fault per 4 KiB, where a huge page takes one per 2 MiB. Does nothing when the
// user's GLIBC_TUNABLES already sets any malloc tunable (theirs win), nor off glibc.
void prepare_process_heap();

}  // namespace ariadne::cli
