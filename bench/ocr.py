"""OCR quality and speed on the generated scans; prints one JSON object.

Two samples: the tuning set (data/scans/, data/generate_scans.py, truth in
data/_truth/scans.json), the one the engine's settings were chosen on, and the held-out set
(data/scans_heldout/, data/generate_scans_heldout.py, truth in
data/_truth/scans_heldout.json): other fonts, layouts, content and seeds, never tuned on.

- `cer_clean` / `cer_noisy`: character error rate (Levenshtein distance over the truth's
  length, whitespace runs as one space) of every page of the tuning set's clean 300 dpi
  renders and of its noisy, blurred, skewed and turned ones (150-200 dpi); `heldout` has
  the same two figures for the held-out set. `files` / `heldout.files`: each file's own.
  PDF pages are rendered as the parser does (`ocr.render_pdf_page` at `ocr.OCR_DPI`).
- `pages_per_s_per_core`: the tuning set's clean 300 dpi A4 pages read with ONNX Runtime
  held to one thread (`FSNB_OCR_THREADS=1`), after one warm-up page, each page timed
  `ROUNDS` times and its median kept; `rotated_s_per_page` for the turned pages, which are
  read more than once; `all_pages_per_s_per_core`: every page of both sets, PDF pages
  rendered included, as a folder of scans would go. `pages_per_cpu_s` and
  `all_pages_per_cpu_s`: the same pages over the process's CPU time instead of the wall
  clock: what one core does when nothing else wants it (on a shared, loaded machine the
  wall-clock figures count the time this process waited for a core).
- `import_s`: importing the engine and making it, in a fresh process.
- `install_mb`: the installed size of the `ocr` extra's distributions in this environment.
- `scan_cold_s`: `scan_folder` over data/large_acquisition with an empty parse cache, the
  born-digital reference (bench/parse.py measures the same; OCR must not slow it).

    .venv/bin/python bench/ocr.py
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["FSNB_OCR_THREADS"] = "1"
DATA = Path(__file__).resolve().parent.parent / "data"
ROUNDS = 3  # each clean A4 page timed this many times, its median kept
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
    """The pages of a scan as the parser reads them: an image file's frames, a PDF's pages
    rendered at `ocr.OCR_DPI`."""
    import pypdfium2

    from fsnb.documents import ocr

    if path.suffix != ".pdf":
        return ocr.open_image(path)
    dpi = getattr(ocr, "OCR_DPI", 300)
    pdf = pypdfium2.PdfDocument(path)
    try:
        return [ocr.render_pdf_page(pdf[i], dpi) for i in range(len(pdf))]
    finally:
        pdf.close()


def evaluate(folder: Path, truth_file: Path) -> dict:
    """Every page of the sample in `folder` read once: CER by set, each file's figures,
    the time of each page (PDF rendering included) and of each clean 300 dpi A4 page."""
    from fsnb.documents import ocr

    truth = json.loads(truth_file.read_text(encoding="utf-8"))["files"]
    per_file: dict[str, dict] = {}
    sums = {"clean": [0.0, 0], "noisy": [0.0, 0]}
    taken = {"all": [0.0, 0], "all_cpu": [0.0, 0], "turned": [0.0, 0]}
    clean_a4: list = []
    for name, info in truth.items():
        start, cpu = time.perf_counter(), time.process_time()
        pages = _pages(folder / name)
        render = (time.perf_counter() - start) / len(pages)
        render_cpu = (time.process_time() - cpu) / len(pages)
        for image, text in zip(pages, info["pages"], strict=True):
            start, cpu = time.perf_counter(), time.process_time()
            page = ocr.ocr_image(image)
            took = time.perf_counter() - start
            took_cpu = time.process_time() - cpu
            rate = cer(page.text, text)
            chars = len(" ".join(text.split()))
            sums[info["set"]][0] += rate * chars
            sums[info["set"]][1] += chars
            taken["all"][0] += took + render
            taken["all"][1] += 1
            taken["all_cpu"][0] += took_cpu + render_cpu
            taken["all_cpu"][1] += 1
            if info["set"] == "clean" and info["dpi"] == 300 and image.height > 3000:
                clean_a4.append(image)
            if page.angle:
                taken["turned"][0] += took
                taken["turned"][1] += 1
            per_file.setdefault(name, {"set": info["set"], "cer": [], "angle": [], "conf": []})
            per_file[name]["cer"].append(round(rate, 4))
            per_file[name]["angle"].append(page.angle)
            per_file[name]["conf"].append(round(page.confidence, 3))
    return {
        "cer_clean": round(sums["clean"][0] / sums["clean"][1], 4),
        "cer_noisy": round(sums["noisy"][0] / sums["noisy"][1], 4),
        "files": per_file,
        "_taken": taken,
        "_clean_a4": clean_a4,
    }


def _per_s(seconds: float, pages: float) -> float | None:
    return round(pages / seconds, 3) if seconds else None


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

    ocr.ocr_image(_pages(DATA / "scans" / "letter_page1.tiff")[0])  # warm-up
    tuning = evaluate(DATA / "scans", DATA / "_truth" / "scans.json")
    heldout = evaluate(DATA / "scans_heldout", DATA / "_truth" / "scans_heldout.json")
    medians, medians_cpu = [], []
    for image in tuning.pop("_clean_a4"):
        times, cpus = [], []
        for _ in range(ROUNDS):
            start, cpu = time.perf_counter(), time.process_time()
            ocr.ocr_image(image)
            times.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        medians.append(statistics.median(times))
        medians_cpu.append(statistics.median(cpus))
    heldout.pop("_clean_a4")
    taken = tuning.pop("_taken")
    other = heldout.pop("_taken")
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
                "cer_clean": tuning["cer_clean"],
                "cer_noisy": tuning["cer_noisy"],
                "heldout": {"cer_clean": heldout["cer_clean"], "cer_noisy": heldout["cer_noisy"]},
                "pages_per_s_per_core": _per_s(sum(medians), len(medians)),
                "pages_per_cpu_s": _per_s(sum(medians_cpu), len(medians_cpu)),
                "rotated_s_per_page": (
                    round(taken["turned"][0] / taken["turned"][1], 3)
                    if taken["turned"][1]
                    else None
                ),
                "all_pages_per_s_per_core": _per_s(
                    taken["all"][0] + other["all"][0], taken["all"][1] + other["all"][1]
                ),
                "all_pages_per_cpu_s": _per_s(
                    taken["all_cpu"][0] + other["all_cpu"][0],
                    taken["all_cpu"][1] + other["all_cpu"][1],
                ),
                "ocr_dpi": getattr(ocr, "OCR_DPI", 300),
                "import_s": _import_s(),
                "install_mb": install_mb,
                "install_packages": packages,
                "scan_cold_s": round(scan_cold, 3),
                "cpu_count": os.cpu_count(),
                "files": tuning["files"],
                "heldout_files": heldout["files"],
                "targets": {"cer_clean": 0.02, "cer_noisy": 0.05, "pages_per_s_per_core": 1.0},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
