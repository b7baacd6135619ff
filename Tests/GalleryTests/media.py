"""Files for the tests to upload and import: real JPEGs and a real video, made by ffmpeg and dated by exiftool."""
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


def big_file(directory, name, megabytes):
    """A JPEG padded to `megabytes` (a trailing comment segment is not allowed, so the padding follows the image)."""
    path = photo(directory, name, megabytes * 11, size="1280x960")
    with open(path, "ab") as f:
        f.write(bytes((i * 7919) % 251 for i in range(megabytes << 20)))
    return path
