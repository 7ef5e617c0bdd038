"""Models from Python: build a module from a PyTorch-exported ONNX file, load it through the C
ABI, run it on numpy arrays, and compare with PyTorch and with `tunefarm model run`."""

import subprocess

import numpy as np
import pytest

import tunefarm

torch = pytest.importorskip("torch")


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("model")
    torch.manual_seed(0)
    model = SmallCnn().eval()
    onnx = str(root / "small_cnn.onnx")
    image = torch.randn(1, 3, 8, 8)
    torch.onnx.export(model, image, onnx, opset_version=13, input_names=["image"],
                      output_names=["logits"])
    with torch.no_grad():
        expected = model(image).numpy()
    module = tunefarm.build_model(onnx, str(root / "small_cnn.so"))
    return {"root": root, "onnx": onnx, "module": module, "image": image.numpy(),
            "expected": expected}


def test_a_built_module_runs_on_numpy_and_matches_pytorch(built):
    with tunefarm.runtime.load_module(built["module"]) as module:
        assert [(t.name, t.shape, str(t.dtype)) for t in module.inputs] == [
            ("image", (1, 3, 8, 8), "float32")]
        assert module.outputs[0].shape == (1, 10)
        (logits,) = module.run(image=built["image"])
        np.testing.assert_allclose(logits, built["expected"], rtol=1e-4, atol=1e-5)
        # Inputs keep their values: a second run gives the same outputs.
        np.testing.assert_array_equal(module.run()[0], logits)
        seconds = module.time(repeats=3, min_repeat_ms=5)
        assert len(seconds) == 3 and all(s > 0 for s in seconds)


def test_the_cli_agrees_with_python_on_the_same_input(built):
    root = built["root"]
    np.save(root / "image.npy", built["image"])
    with tunefarm.runtime.load_module(built["module"]) as module:
        np.save(root / "logits.npy", module.run(image=built["image"])[0])
    done = subprocess.run([tunefarm._build_paths.TUNEFARM_BINARY, "model", "run", built["module"],
                           "--input", "image=%s" % (root / "image.npy"), "--expect",
                           str(root / "logits.npy"), "--rtol", "1e-6"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert done.returncode == 0, done.stdout


def test_bad_inputs_raise_clear_exceptions(built, tmp_path):
    with tunefarm.runtime.load_module(built["module"]) as module:
        with pytest.raises(ValueError, match=r"input 'image' must be float32\[1, 3, 8, 8\], got "
                                             r"float64"):
            module.run(image=built["image"].astype(np.float64))
        with pytest.raises(ValueError, match="got float32\\[1, 3, 4, 4\\]"):
            module.run(image=np.zeros((1, 3, 4, 4), np.float32))
        with pytest.raises(KeyError, match="no input 'pixels'"):
            module.run(pixels=built["image"])
    with pytest.raises(FileNotFoundError):
        tunefarm.runtime.load_module(str(tmp_path / "missing.so"))
    broken = tmp_path / "broken.so"
    broken.write_bytes(b"not a module")
    with pytest.raises(tunefarm.TunefarmError, match="broken.so"):
        tunefarm.runtime.load_module(str(broken))
    with pytest.raises(tunefarm.TunefarmError, match="not an ONNX model"):
        tunefarm.build_model(str(broken), str(tmp_path / "out.so"))
    with pytest.raises(ValueError, match="db= and device_key= go together"):
        tunefarm.build_model(built["onnx"], str(tmp_path / "out.so"), db="x.db")
