"""Activation smoothing for the int8 forms of convert_e5.py (SmoothQuant, data-driven).

An int8 matrix product quantises its input activations per tensor at run time, so one channel
that runs ten times wider than the rest (multilingual-e5-small has such channels after its
LayerNorms and GELUs: up to 40-60 where the median is about 1) spends the 255 steps on itself.
Dividing input channel k by s_k and multiplying the weights' input row k by s_k leaves the
product unchanged in exact arithmetic and balances the two: s_k = sqrt(max|x_k| / max|w_k|).

The activation ranges come from a float64 NumPy forward pass of the dequantised network (the
exact 4-bit weights) over the calibration passages, never over evaluation questions. Each s_k
is rounded to a power of two: scaling by it is exact in binary floating point, and the rounding
makes the model's bytes independent of the last bits of whichever BLAS NumPy uses here.
"""
import numpy as np

ALPHA = 0.5


def _dequantize_rows(scales, packed):
    values = np.concatenate([packed & 0x0F, packed >> 4], axis=-1).astype(np.float64) - 8.0
    return (values * scales.astype(np.float64)[:, :, None]).reshape(scales.shape[0], -1)


def _layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def _gelu(x):
    # tanh form: NumPy has no erf; the ranges it gives differ from erf GELU's far below the
    # power-of-two rounding the factors get.
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def activation_ranges(image, weights, token_rows):
    """Largest |activation| per input channel of each linear layer, over all calibration tokens.

    weights(prefix) gives a layer's dequantised float64 weight [n_out, n_in] and bias.
    Returns {"l{i}.qkv"|"l{i}.ao"|"l{i}.fi"|"l{i}.fo": [n_in] float64}.
    """
    low, high = activation_bounds(image, weights, token_rows)
    return {key: np.maximum(-low[key], high[key]) for key in high}


def activation_bounds(image, weights, token_rows):
    """Smallest and largest activation per input channel of each linear layer, over all
    calibration tokens: ({key: [n_in]}, {key: [n_in]}), keys as activation_ranges'."""
    H, heads = image.hidden, image.heads
    d = H // heads
    word_scales, word_packed = image.q4("emb.word", image.vocab, H)
    pos_type = image.f32("emb.pos", (image.max_pos, H)).astype(np.float64) \
        + image.f32("emb.type", (image.type_vocab, H))[0].astype(np.float64)
    f64 = lambda name: image.f32(name, (H,)).astype(np.float64)
    low, high = {}, {}

    def seen(key, x):
        lo, hi = x.min(axis=0), x.max(axis=0)
        low[key] = lo if key not in low else np.minimum(low[key], lo)
        high[key] = hi if key not in high else np.maximum(high[key], hi)

    for ids in token_rows:
        ids = np.asarray(ids)
        x = _dequantize_rows(word_scales[ids], word_packed[ids]) + pos_type[:len(ids)]
        x = _layer_norm(x, f64("emb.ln.w"), f64("emb.ln.b"), image.eps)
        for layer in range(image.layers):
            p = f"l{layer}"
            seen(f"{p}.qkv", x)
            w, b = weights(f"{p}.qkv")
            qkv = x @ w.T + b
            q, k, v = (qkv[:, i * H:(i + 1) * H].reshape(-1, heads, d).transpose(1, 0, 2) for i in range(3))
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            ctx = (scores / scores.sum(-1, keepdims=True)) @ v
            ctx = ctx.transpose(1, 0, 2).reshape(-1, H)
            seen(f"{p}.ao", ctx)
            w, b = weights(f"{p}.ao")
            x = _layer_norm(x + ctx @ w.T + b, f64(f"{p}.aln.w"), f64(f"{p}.aln.b"), image.eps)
            seen(f"{p}.fi", x)
            w, b = weights(f"{p}.fi")
            act = _gelu(x @ w.T + b)
            seen(f"{p}.fo", act)
            w, b = weights(f"{p}.fo")
            x = _layer_norm(x + act @ w.T + b, f64(f"{p}.oln.w"), f64(f"{p}.oln.b"), image.eps)
    return low, high


def factors(act_range, weight):
    """s_k per input channel, a power of two: x_k / s_k and w[:, k] * s_k."""
    w_range = np.abs(weight).max(axis=0)
    raw = np.sqrt(np.maximum(act_range, 1e-6) ** (2 * ALPHA) / np.maximum(w_range, 1e-6) ** (2 - 2 * ALPHA))
    return np.exp2(np.rint(np.log2(raw)))


def shifts(low, high):
    """The centre of each channel's calibrated range, rounded to 1/16 (so that the model's bytes
    do not depend on the last bits of the calibration pass): subtracting it from the input (and
    adding the weights times it to the bias) leaves a range about zero, about (high - low) / 2
    wide, where a one-sided wide channel had set the per-tensor int8 step by its whole reach."""
    return np.rint((low + high) / 2 * 16) / 16
