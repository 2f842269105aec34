-- pg_0012_capture_material: as SQLite's 0032_capture_material (decision 0156): what a
-- capture declares of its material, the original it repeats and how it was collected.
ALTER TABLE memory_protocol ADD COLUMN material_type TEXT NOT NULL DEFAULT 'unspecified';
ALTER TABLE memory_protocol ADD COLUMN origin_id TEXT;
ALTER TABLE memory_protocol ADD COLUMN capture_context TEXT;
