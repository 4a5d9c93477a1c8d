"""Writes frames_lost.mkv: a video whose container times say that frames
were lost, as a webcam recording that drops frames under load does.

Six 32x32 frames stamped 0, 0.1, 0.2, 0.5, 0.6 and 0.7 s (two frames lost
after the third); frame k is grey level 40k. Made with PyAV
(`pip install av`), once; the video is committed.

    python3 tests/data/video/make_frames_lost.py
"""

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

STAMPS_MS = [0, 100, 200, 500, 600, 700]


def main():
    out = Path(__file__).with_name("frames_lost.mkv")
    with av.open(str(out), "w") as container:
        stream = container.add_stream("mjpeg", rate=10)
        stream.width = stream.height = 32
        stream.pix_fmt = "yuvj420p"
        stream.time_base = Fraction(1, 1000)
        for k, ms in enumerate(STAMPS_MS):
            image = np.full((32, 32, 3), 40 * k, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts = ms
            frame.time_base = Fraction(1, 1000)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


if __name__ == "__main__":
    main()
