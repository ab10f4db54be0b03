"""Detection heads: YOLO region/reorg layers, ROI pooling, prior boxes."""
