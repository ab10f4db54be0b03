"""Signal processing: the discrete Fourier transforms (DFT, IDFT, RDFT, IRDFT)."""
