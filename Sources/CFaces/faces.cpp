#include "CFaces.h"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace dlib;

// dlib's face descriptor network (dlib_face_recognition_resnet_model_v1),
// a ResNet-29 taking a 150-pixel aligned face chip; its layers must be
// declared exactly so for the model file to load.
template <template <int, template <typename> class, int, typename> class block, int N, template <typename> class BN, typename SUBNET>
using residual = add_prev1<block<N, BN, 1, tag1<SUBNET>>>;
template <template <int, template <typename> class, int, typename> class block, int N, template <typename> class BN, typename SUBNET>
using residual_down = add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<N, BN, 2, tag1<SUBNET>>>>>>;
template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<con<N, 3, 3, 1, 1, relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;
template <int N, typename SUBNET> using ares = relu<residual<block, N, affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = relu<residual_down<block, N, affine, SUBNET>>;
template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;
using descriptor_net = loss_metric<fc_no_bias<128, avg_pool_everything<alevel0<alevel1<alevel2<alevel3<alevel4<
    max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;

// OpenBLAS (libopenblas-dev, which the target links) would start a thread a
// core for each matrix product; the indexer decides how many run at once.
extern "C" void openblas_set_num_threads(int);

void copy_error(const std::string &message, char *error, size_t error_size) {
    if (error == nullptr || error_size == 0) return;
    std::strncpy(error, message.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
}

}  // namespace

struct opk_face_engine {
    frontal_face_detector detector = get_frontal_face_detector();
    shape_predictor landmarks;
    descriptor_net descriptors;
};

extern "C" opk_face_engine *opk_face_engine_open(const char *landmarks_path, const char *descriptor_path, char *error, size_t error_size) {
    openblas_set_num_threads(1);
    try {
        auto engine = new opk_face_engine();
        try {
            deserialize(landmarks_path) >> engine->landmarks;
            deserialize(descriptor_path) >> engine->descriptors;
        } catch (...) {
            delete engine;
            throw;
        }
        return engine;
    } catch (const std::exception &failure) {
        copy_error(failure.what(), error, error_size);
    } catch (...) {
        copy_error("the face models could not be read", error, error_size);
    }
    return nullptr;
}

extern "C" void opk_face_engine_close(opk_face_engine *engine) { delete engine; }

extern "C" int opk_face_engine_find(
    opk_face_engine *engine, const uint8_t *rgba, int width, int height, int bytes_per_row, int upsample, opk_face *faces, int capacity,
    char *error, size_t error_size) {
    try {
        matrix<rgb_pixel> image(height, width);
        for (int y = 0; y < height; ++y) {
            const uint8_t *row = rgba + static_cast<size_t>(y) * bytes_per_row;
            for (int x = 0; x < width; ++x) image(y, x) = rgb_pixel(row[4 * x], row[4 * x + 1], row[4 * x + 2]);
        }
        // Detection on the image doubled `upsample` times; boxes scaled back.
        std::vector<rect_detection> found;
        if (upsample > 0) {
            matrix<rgb_pixel> larger = image;
            for (int i = 0; i < upsample; ++i) pyramid_up(larger);
            engine->detector(larger, found);
            const double scale = 1.0 / (1 << upsample);
            for (auto &detection : found) detection.rect = scale_rect(detection.rect, scale);
        } else {
            engine->detector(image, found);
        }
        std::sort(found.begin(), found.end(), [](const rect_detection &a, const rect_detection &b) { return a.detection_confidence > b.detection_confidence; });
        const int count = std::min<int>(capacity, static_cast<int>(found.size()));
        for (int i = 0; i < count; ++i) {
            const rectangle box = found[i].rect;
            const full_object_detection shape = engine->landmarks(image, box);
            matrix<rgb_pixel> chip;
            extract_image_chip(image, get_face_chip_details(shape, 150, 0.25), chip);
            const matrix<float, 0, 1> descriptor = engine->descriptors(chip);
            opk_face &face = faces[i];
            face.left = static_cast<float>(box.left());
            face.top = static_cast<float>(box.top());
            face.right = static_cast<float>(box.right() + 1);
            face.bottom = static_cast<float>(box.bottom() + 1);
            face.confidence = static_cast<float>(found[i].detection_confidence);
            for (int d = 0; d < OPK_FACE_DESCRIPTOR_LENGTH; ++d) face.descriptor[d] = descriptor(d);
        }
        return count;
    } catch (const std::exception &failure) {
        copy_error(failure.what(), error, error_size);
    } catch (...) {
        copy_error("face detection failed", error, error_size);
    }
    return -1;
}
