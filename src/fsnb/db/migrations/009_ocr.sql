-- 9: OCR provenance (issue 25). A document or chunk whose text came from OCR (a scanned
-- page, an image) is marked, with the mean confidence of the text read (0-1); a
-- document's `ocr_pages` maps each page read by OCR to its confidence.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS ocr BOOLEAN DEFAULT false;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS ocr_confidence DOUBLE;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS ocr_pages JSON;
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS ocr BOOLEAN DEFAULT false;
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS ocr_confidence DOUBLE;
