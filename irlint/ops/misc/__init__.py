"""Ops that fit no other family: Eye, RandomUniform, SearchSorted, SliceScatter, SegmentMax, ..."""
