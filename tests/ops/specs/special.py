"""Specs of the special functions (math_ops.py): Bessel, incomplete gamma and beta, ...

References are values of the functions at fixed points, computed to full precision
independently of eagerflow (with mpmath).
"""
import numpy as np

import eagerflow as tf
from tests.internals import math_ops as m
from tests.ops.spec import OpSpec

F16, F32, F64 = np.float16, np.float32, np.float64

# Small arguments (power series), moderate ones (quadrature) and one past the asymptotic bound;
# functions growing like e^x stop short of it (XG), or their finite differences, taken on the
# sum of all outputs, would drown in the largest.
X = np.array([[0.3, 1.1, 2.7], [4.5, 9.0, 31.0]])
XG = np.array([[0.3, 1.1, 2.7], [4.5, 7.0, 9.0]])
_GROWING = ("BesselI0", "BesselI1", "Expint")
_VALUES = {  # each list: f at the two rows of X (XG for _GROWING)
    "BesselI0": [
        1.022626879351597, 1.3261601837126527, 3.841650976595935,
        17.481171855609276, 168.5939085102897, 1093.5883545113747],
    "BesselI0e": [
        0.7575806251825479, 0.4414403775096749, 0.25818012364929016,
        0.1941982776283823, 0.134959524581723, 0.07194649669698383],
    "BesselI1": [
        0.15169384000359276, 0.637488876453882, 3.0161076931614064,
        15.389222753735924, 156.03909286995545, 1030.9147225169565],
    "BesselI1e": [
        0.1123775606398388, 0.21220161315067482, 0.20269906399721613,
        0.17095882229749212, 0.1272249839358912, 0.07077639283438568],
    "BesselJ0": [
        0.9776262465382961, 0.719622018527511, -0.1424493700460119,
        -0.32054250898512143, -0.09033361118287614, 0.05120814530454225],
    "BesselJ1": [
        0.148318816273104, 0.470902394866293, 0.44160137911825303,
        -0.23106043192337064, 0.24531178657332528, -0.1330243166663142],
    "BesselY0": [
        -0.8072735778045195, 0.1621632029268868, 0.46050354907539487,
        -0.19470500862950454, 0.24993669828502468, -0.1338326605036443],
    "BesselY1": [
        -2.2931051383885293, -0.698119560067667, 0.22763244587086395,
        0.3009973230696546, 0.10431457519671589, -0.053372826957321595],
    "BesselK0": [
        1.3724600605442974, 0.36560239154318586, 0.04925540091581758,
        0.006399857243233975, 5.0881312956459246e-05, 7.718382655527615e-15],
    "BesselK0e": [
        1.8526273007720142, 1.0983302829475998, 0.7329071516284215,
        0.5760967897687883, 0.4122955492314181, 0.2242101374192749],
    "BesselK1": [
        3.055992033457325, 0.509760027167027, 0.05773839895652594,
        0.00707809490896809, 5.363701637945195e-05, 7.841899600834063e-15],
    "BesselK1e": [
        4.12515776224447, 1.5314037539811933, 0.8591318866967836,
        0.6371497987781355, 0.4346252453474347, 0.2277981625945925],
    "Dawsn": [
        0.28263166502131193, 0.5262066799705525, 0.20237451091051398,
        0.11408861022682498, 0.05590504672435046, 0.016137437186981757],
    "Expint": [
        -0.30266853926582593, 2.167378279563403, 8.110347415222037,
        27.93369669793958, 191.5047433355014, 1037.8782907170896],
    "FresnelCos": [
        0.2994009760520472, 0.763806666062012, 0.39249396985274804,
        0.5260259150535388, 0.5353661274681198, 0.510268057465068],
    "FresnelSin": [
        0.014116998006576583, 0.5364979110968205, 0.45291748761671907,
        0.4342729750487036, 0.4998610456296849, 0.4999965989387096],
    "Spence": [
        0.8893776242860387, -0.09760523522932167, -1.2668441458663635,
        -2.162096799077975, -3.6856760007574065, -7.395946286130681],
}
_UNARY = {
    "BesselI0": tf.math.bessel_i0, "BesselI0e": tf.math.bessel_i0e, "BesselI1": tf.math.bessel_i1,
    "BesselI1e": tf.math.bessel_i1e, "BesselJ0": tf.math.special.bessel_j0,
    "BesselJ1": tf.math.special.bessel_j1,
    "BesselY0": tf.math.special.bessel_y0, "BesselY1": tf.math.special.bessel_y1,
    "BesselK0": tf.math.special.bessel_k0,
    "BesselK0e": tf.math.special.bessel_k0e, "BesselK1": tf.math.special.bessel_k1,
    "BesselK1e": tf.math.special.bessel_k1e,
    "Dawsn": tf.math.special.dawsn, "Expint": tf.math.special.expint,
    "FresnelCos": tf.math.special.fresnel_cos,
    "FresnelSin": tf.math.special.fresnel_sin, "Spence": tf.math.special.spence,
}


def _table(values):
    return lambda *args: np.array(values).reshape(2, 3).astype(args[-1].dtype)


def _unary(op, fn):
    x = XG if op in _GROWING else X
    return [OpSpec(op, fn, [x.astype(dtype)], _table(_VALUES[op]), rtol=rtol,
                   name=f"{op}-{np.dtype(dtype).name}")
            for dtype, rtol in ((F32, 1e-6), (F64, 1e-12))]


# the incomplete gamma function's (a, x): below x = a + 1 (series) and above (fraction)
A = np.array([[0.5, 1.5, 3.0], [7.0, 20.0, 0.9]])
AX = np.array([[0.7, 2.5, 1.0], [9.0, 18.0, 4.0]])
_IGAMMA = [
    0.7632764293621426, 0.8282028557032669, 0.08030139707139419,
    0.793219160140013, 0.34908387201929825, 0.9853817707584878]
_IGAMMAC = [
    0.23672357063785737, 0.17179714429673312, 0.9196986029286058,
    0.206780839859987, 0.6509161279807018, 0.014618229241512268]
_IGAMMA_GRAD_A = [
    -0.5313388305051272, -0.20882254487867838, -0.10645935294394226,
    -0.10549943367004838, -0.08478556749664008, -0.03427233319057488]
# the incomplete beta function's (a, b, x), each side of the fraction's switch point
BA = np.array([[0.5, 2.0, 3.5], [10.0, 0.8, 40.0]])
BB = np.array([[1.5, 2.0, 0.7], [12.0, 5.0, 30.0]])
BX = np.array([[0.2, 0.5, 0.9], [0.45, 0.05, 0.6]])
_BETAINC = [
    0.5498151442478991, 0.5, 0.5377805842763587,
    0.4883135430783529, 0.3191391508973082, 0.681856197409437]


def _betainc_x(x):
    return tf.math.betainc(tf.constant(BA, x.dtype), tf.constant(BB, x.dtype), x)


SPECS = [
    *(spec for op, fn in _UNARY.items() for spec in _unary(op, fn)),
    OpSpec("BesselI0e", tf.math.bessel_i0e, [X.astype(F16)], _table(_VALUES["BesselI0e"]),
           rtol=1e-3,
           name="BesselI0e-float16", grad="checked in float32 and float64"),
    *(OpSpec(op, fn, [A.astype(dtype), AX.astype(dtype)], _table(values), rtol=rtol,
             name=f"{op}-{np.dtype(dtype).name}")
      for op, fn,
      values in (("Igamma", tf.math.igamma, _IGAMMA), ("Igammac", tf.math.igammac, _IGAMMAC))
      for dtype, rtol in ((F32, 1e-6), (F64, 1e-12))),
    OpSpec("IgammaGradA", m._igamma_grad_a, [A, AX], _table(_IGAMMA_GRAD_A), rtol=1e-12,
           grad="TF defines no gradient for it"),
    OpSpec("Betainc", tf.math.betainc, [BA, BB, BX], _table(_BETAINC), rtol=1e-12,
           grad="TF differentiates x only: see Betainc-x"),
    OpSpec("Betainc", _betainc_x, [BX.astype(F32)], _table(_BETAINC), rtol=1e-6,
           name="Betainc-x"),
    # the unscrambled Sobol sequence (Joe-Kuo directions) after the origin, as TF 2.21 gives it
    OpSpec("SobolSample", lambda d, n, k: tf.math.sobol_sample(d, n, k),
           [np.int32(3), np.int32(4), np.int32(2)],
           lambda d, n, k: np.array([[0.25, 0.75, 0.75], [0.375, 0.375, 0.625],
                                     [0.875, 0.875, 0.125], [0.625, 0.125, 0.875]], F32),
           grad="a fixed sequence"),
]
