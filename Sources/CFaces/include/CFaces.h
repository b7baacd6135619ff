// Faces found and described by dlib (Debian's libdlib-dev), behind a C
// interface Swift can call: HOG face detection, dlib's five-point landmarks
// and its ResNet face descriptor (the models PyPI's face_recognition_models
// ships, CC0). No exception crosses this interface.
#ifndef OPK_FACES_H
#define OPK_FACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The length of a face descriptor.
#define OPK_FACE_DESCRIPTOR_LENGTH 128

/// A face found in an image: its box in the image's pixels (origin top
/// left, right and bottom exclusive, possibly reaching past the image), the
/// detector's confidence (above 0; larger is surer) and its descriptor, a
/// point of 128 dimensions where faces of one person lie within about 0.6.
typedef struct opk_face {
    float left, top, right, bottom;
    float confidence;
    float descriptor[OPK_FACE_DESCRIPTOR_LENGTH];
} opk_face;

/// A detector with its models loaded; calls on one take turns (the caller's lock).
typedef struct opk_face_engine opk_face_engine;

/// Loads the landmark and descriptor models; nil with `error` filled when
/// either cannot be read.
opk_face_engine *opk_face_engine_open(const char *landmarks_path, const char *descriptor_path, char *error, size_t error_size);

void opk_face_engine_close(opk_face_engine *engine);

/// Finds the faces in an RGBA image and describes each, the surest first,
/// at most `capacity` of them. `upsample` doubles the image that many times
/// before detection (the detector finds faces from about 80 pixels; each
/// doubling halves that at four times the cost). Returns how many faces it
/// wrote, or -1 with `error` filled.
int opk_face_engine_find(
    opk_face_engine *engine, const uint8_t *rgba, int width, int height, int bytes_per_row, int upsample, opk_face *faces, int capacity,
    char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
