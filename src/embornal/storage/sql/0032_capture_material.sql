-- 0032_capture_material: what a capture declares of its material (decision 0156): its
-- type (`document`, `utterance`, `observation`, `summary`; 'unspecified' when not said),
-- the original it repeats (`origin_id`; NULL: unknown) and how it was collected
-- (`capture_context`; NULL: not said). Rebuilt from the log (`MemoryCaptured`); the rows
-- of earlier captures declared nothing. Both texts are erased by a purge.
ALTER TABLE memory_protocol ADD COLUMN material_type TEXT NOT NULL DEFAULT 'unspecified';
ALTER TABLE memory_protocol ADD COLUMN origin_id TEXT;
ALTER TABLE memory_protocol ADD COLUMN capture_context TEXT;
