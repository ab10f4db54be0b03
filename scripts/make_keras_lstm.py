"""Write tests/viewer/fixtures/keras_lstm.xml/.bin: a Keras LSTM converted by OpenVINO's TensorFlow front end.

Run with a Python that has tensorflow-cpu and openvino (neither is needed to use the fixture;
tensorflow is deliberately not a test dependency):

    python -m venv /tmp/tf && /tmp/tf/bin/pip install tensorflow-cpu openvino
    /tmp/tf/bin/python scripts/make_keras_lstm.py

The model is small (5 steps of 3 features, 4 units) but converted the way real ones are: TensorFlow
writes the recurrence as a while loop, which OpenVINO turns into a Loop with Keras' long body names
(`functional_1_lstm_1_while_..._loop_counter`, `..._strided_slice_3`) and gate ops in name scopes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "viewer" / "fixtures" / "keras_lstm.xml"


def main() -> None:
    import keras
    import numpy as np
    import openvino as ov

    keras.utils.set_random_seed(7)
    inputs = keras.Input(shape=(5, 3), batch_size=1, name="x")
    # unroll=False keeps the while loop; use_cudnn=False keeps the generic kernel a CPU build exports
    outputs = keras.layers.LSTM(4, return_sequences=False, use_cudnn=False, name="lstm_1")(inputs)
    model = keras.Model(inputs, outputs, name="functional_1")
    with tempfile.TemporaryDirectory() as tmp:
        model.export(tmp, format="tf_saved_model")
        ov_model = ov.convert_model(tmp)
    ov.save_model(ov_model, str(OUT), compress_to_fp16=False)
    x = np.linspace(-1, 1, 15, dtype=np.float32).reshape(1, 5, 3)
    np.savez(OUT.with_name("keras_lstm_inputs.npz"), **{ov_model.inputs[0].any_name: x})
    print(f"wrote {OUT} ({sum(1 for _ in ov_model.get_ordered_ops())} top-level ops)")


if __name__ == "__main__":
    main()
