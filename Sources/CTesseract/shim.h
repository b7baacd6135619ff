// Tesseract's C interface (libtesseract-dev), for reading text in images.
#include <tesseract/capi.h>

// From libgomp, which Debian's Tesseract runs its LSTM layers on: 0 makes
// every OpenMP region run on the calling thread alone (see TextRecognizer).
void omp_set_max_active_levels(int max_levels);

// From Leptonica, Tesseract's image library: the least severe message it
// prints on standard error (6, L_SEVERITY_NONE: none). Returns the old one.
int setMsgSeverity(int new_severity);
