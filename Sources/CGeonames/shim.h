#include <geonames/geonames.h>
