"""Text functions with no state and no fsnb imports, shared by the index, the tools, the
offline backend and the masking boundary:

- `words`: tokenizing for ranking (stems, numbers, STOPWORDS), the same terms for BM25 and
  the offline backend;
- `segments`: paragraphs, blocks, sentences and budgeted pieces, as `Span`s of offsets;
- `ranges`: size and date ranges as people write them (`>10MB`, `this-week`);
- `redact`: secret masking for text bound for an LLM (`mask_secrets`).
"""
