"""OCR quality and speed on the generated scans (data/scans/, truth in data/_truth/scans.json);
prints one JSON object.

- `cer_clean` / `cer_noisy`: character error rate (Levenshtein distance over the truth's
  length, whitespace runs as one space) of every page of the clean 300 dpi renders and of
  the noisy, blurred, skewed and turned ones (150-200 dpi), with each file's own figure.
- `pages_per_s_per_core`: clean 300 dpi A4 pages read with ONNX Runtime held to one thread
  (`FSNB_OCR_THREADS=1`), after one warm-up page; `rotated_s_per_page` for the turned ones,
  which are read more than once.
- `import_s`: importing the engine and making it, in a fresh process.
- `install_mb`: the installed size of the `ocr` extra's distributions in this environment.
- `scan_cold_s`: `scan_folder` over data/large_acquisition with an empty parse cache, the
  born-digital reference (bench/parse.py measures the same; OCR must not slow it).

    .venv/bin/python bench/ocr.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["FSNB_OCR_THREADS"] = "1"
DATA = Path(__file__).resolve().parent.parent / "data"
OCR_DISTRIBUTIONS = (
    "rapidocr onnxruntime opencv-python-headless omegaconf shapely pyclipper protobuf "
    "flatbuffers colorlog"
).split()


def cer(read: str, truth: str) -> float:
    a, b = " ".join(read.split()), " ".join(truth.split())
    try:
        from rapidfuzz.distance import Levenshtein

        distance = Levenshtein.distance(a, b)
    except ImportError:
        row = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            prev, row[0] = row[0], i
            for j, cb in enumerate(b, 1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        distance = row[-1]
    return distance / max(len(b), 1)


def _pages(path: Path) -> list:
    import pypdfium2

    from fsnb.documents import ocr

    if path.suffix != ".pdf":
        return [(frame, False) for frame in ocr.open_image(path)]
    pdf = pypdfium2.PdfDocument(path)
    try:
        return [(ocr.render_pdf_page(pdf[i], 300), ocr.needs_ocr(pdf[i])) for i in range(len(pdf))]
    finally:
        pdf.close()


def _install_mb() -> tuple[float, int]:
    total, found = 0, 0
    for name in OCR_DISTRIBUTIONS:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found += 1
        for file in dist.files or ():
            path = Path(dist.locate_file(file))
            if path.is_file():
                total += path.stat().st_size
    return round(total / 2**20, 1), found


def _import_s() -> float:
    code = (
        "import time; t = time.perf_counter(); from fsnb.documents import ocr; ocr.engine(); "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return round(float(out.stdout.strip().splitlines()[-1]), 3)


def main() -> None:
    from fsnb.documents import ocr
    from fsnb.tools import scan_folder

    truth = json.loads((DATA / "_truth" / "scans.json").read_text(encoding="utf-8"))["files"]
    ocr.ocr_image(_pages(DATA / "scans" / "letter_page1.tiff")[0][0])  # warm-up
    per_file: dict[str, dict] = {}
    sums = {"clean": [0.0, 0], "noisy": [0.0, 0]}
    clean_s = clean_pages = turned_s = turned_pages = 0.0
    for name, info in truth.items():
        pages = _pages(DATA / "scans" / name)
        for (image, _), text in zip(pages, info["pages"], strict=True):
            start = time.perf_counter()
            page = ocr.ocr_image(image)
            took = time.perf_counter() - start
            rate = cer(page.text, text)
            chars = len(" ".join(text.split()))
            sums[info["set"]][0] += rate * chars
            sums[info["set"]][1] += chars
            if info["set"] == "clean" and info["dpi"] == 300 and image.height > 3000:
                clean_s, clean_pages = clean_s + took, clean_pages + 1
            if page.angle:
                turned_s, turned_pages = turned_s + took, turned_pages + 1
            per_file.setdefault(name, {"set": info["set"], "cer": [], "angle": [], "conf": []})
            per_file[name]["cer"].append(round(rate, 4))
            per_file[name]["angle"].append(page.angle)
            per_file[name]["conf"].append(round(page.confidence, 3))
    with tempfile.TemporaryDirectory() as cache:
        os.environ["FSNB_CACHE_DIR"] = cache
        start = time.perf_counter()
        scan_folder(root=str(DATA / "large_acquisition"))
        scan_cold = time.perf_counter() - start
    install_mb, packages = _install_mb()
    print(
        json.dumps(
            {
                "engine": "rapidocr (PP-OCRv6 small det/rec) on onnxruntime",
                "cer_clean": round(sums["clean"][0] / sums["clean"][1], 4),
                "cer_noisy": round(sums["noisy"][0] / sums["noisy"][1], 4),
                "pages_per_s_per_core": round(clean_pages / clean_s, 3) if clean_s else None,
                "rotated_s_per_page": round(turned_s / turned_pages, 3) if turned_pages else None,
                "import_s": _import_s(),
                "install_mb": install_mb,
                "install_packages": packages,
                "scan_cold_s": round(scan_cold, 3),
                "cpu_count": os.cpu_count(),
                "files": per_file,
                "targets": {"cer_clean": 0.02, "cer_noisy": 0.05, "pages_per_s_per_core": 1.0},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
