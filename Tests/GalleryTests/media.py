"""Files for the tests to upload and import: real JPEGs and real videos of every common kind, made by ffmpeg and dated by exiftool."""
import datetime
import plistlib
import struct
import subprocess
import time
from pathlib import Path


def photo(directory, name, seed, date=None, size="640x480"):
    """A JPEG of a test pattern, different for each seed, dated `date` (EXIF, "YYYY:MM:DD HH:MM:SS"; default now)."""
    path = Path(directory) / name
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=1,hue=h={seed * 37 % 360}",
                    "-frames:v", "1", "-q:v", "3", str(path)], check=True)
    stamp = date or time.strftime("%Y:%m:%d %H:%M:%S")
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={stamp}", "-Make=TestCam", f"-Model=Model {seed}", str(path)], check=True)
    return path


def video(directory, name, seconds=6):
    """An H.264 MP4 with a moving test pattern and its creation time set to now."""
    path = Path(directory) / name
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size=320x240:rate=25:duration={seconds}",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-movflags", "+faststart",
                    "-metadata", f"creation_time={stamp}", str(path)], check=True)
    return path


# The videos phones and cameras make that browsers on Linux do not play, by the encoder and container that make them.
VIDEO_KINDS = {
    # Played as they are.
    "Android H.264 MP4": ("VID_0010.mp4", ["-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-f", "mp4"]),
    "VP9 WebM": ("clip-0011.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus", "-f", "webm"]),
    "AV1 MP4": ("clip-0012.mp4", ["-c:v", "libsvtav1", "-preset", "12", "-c:a", "aac", "-f", "mp4"]),
    # Played through the server's H.264 copy.
    "iPhone HEVC MOV": ("IMG_0001.MOV", ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-f", "mov"]),
    "iPhone HDR (HLG) HEVC MOV": ("IMG_0006.MOV", ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error",
                                                   "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67",
                                                   "-colorspace", "bt2020nc", "-f", "mov"]),
    "3GP (H.263)": ("VID_0002.3gp", ["-c:v", "h263", "-s", "176x144", "-c:a", "aac", "-ar", "8000", "-ac", "1", "-f", "3gp"]),
    "camcorder MTS": ("00003.MTS", ["-c:v", "libx264", "-f", "mpegts", "-mpegts_m2ts_mode", "1"]),
    "compact camera AVI (Motion JPEG)": ("MVI_0004.AVI", ["-c:v", "mjpeg", "-f", "avi"]),
    "MKV (MPEG-4 Part 2)": ("clip-0005.mkv", ["-c:v", "mpeg4", "-f", "matroska"]),
}


def video_of_kind(directory, kind, seconds=2):
    """A video of one of VIDEO_KINDS, with a moving test pattern and a tone."""
    name, arguments = VIDEO_KINDS[kind]
    path = Path(directory) / name
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size=320x240:rate=25:duration={seconds}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}", "-pix_fmt", "yuv420p"] + arguments + [str(path)],
                   check=True)
    return path


def apple_exif(content_identifier):
    """An EXIF APP1 segment holding only Apple's MakerNote with a content identifier (tag 0x11), as an iPhone writes it.
    Built here because exiftool does not write Apple's MakerNote."""
    text = content_identifier.encode() + b"\0"
    header, entry_count = 16, 1
    note = bytearray(b"Apple iOS\0\0\x01MM") + struct.pack(">H", entry_count)
    value_at = header + 12 * entry_count + 4
    note += struct.pack(">HHII", 0x0011, 2, len(text), value_at) + struct.pack(">I", 0) + text
    # TIFF: IFD0 with the Exif IFD's offset; the Exif IFD with the MakerNote.
    ifd0 = 8
    exif_ifd = ifd0 + 2 + 12 + 4
    note_at = exif_ifd + 2 + 12 + 4
    tiff = b"MM\0\x2a" + struct.pack(">I", ifd0)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x8769, 4, 1, exif_ifd) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x927C, 7, len(note), note_at) + struct.pack(">I", 0)
    body = b"Exif\0\0" + tiff + bytes(note)
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def live_photo(directory, identifier="5F2A9C1E-0000-4000-8000-00000000AA01"):
    """A Live Photo's two files as an iPhone writes them: a JPEG and an HEVC MOV sharing Apple's content identifier."""
    still = Path(directory) / "IMG_0100.JPG"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=1,hue=h=111",
                    "-frames:v", "1", "-q:v", "3", str(still)], check=True)
    jpeg = still.read_bytes()
    still.write_bytes(jpeg[:2] + apple_exif(identifier) + jpeg[2:])
    motion = Path(directory) / "IMG_0100.MOV"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=2",
                    "-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p",
                    "-metadata", f"com.apple.quicktime.content.identifier={identifier}", "-movflags", "use_metadata_tags",
                    str(motion)], check=True)
    return still, motion


def apple_adjustments(path, render_types):
    """An `.AAE` as Apple's Photos exports beside a Live Photo: an XML property list whose render types carry the
    effect (0x1 Loop, 0x8 Bounce, 0x4 Long Exposure)."""
    Path(path).write_bytes(plistlib.dumps({
        "adjustmentBaseVersion": 0, "adjustmentData": bytes(40), "adjustmentEditorBundleID": "com.apple.mobileslideshow",
        "adjustmentFormatIdentifier": "com.apple.photo", "adjustmentFormatVersion": "1.5",
        "adjustmentRenderTypes": render_types,
        "adjustmentTimestamp": datetime.datetime(2024, 6, 1, 10, 20, 30),
    }, fmt=plistlib.FMT_XML))
    return Path(path)


def big_file(directory, name, megabytes):
    """A JPEG padded to `megabytes` (a trailing comment segment is not allowed, so the padding follows the image)."""
    path = photo(directory, name, megabytes * 11, size="1280x960")
    with open(path, "ab") as f:
        f.write(bytes((i * 7919) % 251 for i in range(megabytes << 20)))
    return path
