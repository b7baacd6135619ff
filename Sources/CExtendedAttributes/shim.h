// Extended attributes (getxattr(2) and friends), which Swift's Glibc module
// leaves out; they are in the C library itself, so nothing is linked.
#include <sys/xattr.h>
