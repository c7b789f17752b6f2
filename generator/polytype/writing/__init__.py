"""Writing: the files a build produced, on disk, atomically, under a lock, with a manifest."""
