"""Known differences from TensorFlow, each an xfail(strict=True) in test_differential.

Keys are fnmatch patterns over "case_id@mode" (or over the case id alone,
meaning every mode).  A fix that makes a listed case pass makes its test
fail as XPASS, so the entry must then be removed.  TF_WRONG lists the cases
where TF itself is wrong and eagerflow deliberately differs; they are skipped,
not compared.
"""

KNOWN = {
}

TF_WRONG = {
}

# Public functions of both libraries that are not swept, with the reason.
NOT_SWEPT = {
}
