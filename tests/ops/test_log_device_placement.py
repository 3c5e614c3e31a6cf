"""tf.debugging.set_log_device_placement prints where eager ops run, as TF does on stdout."""
import eagerflow as tf

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_placement_lines_once_per_op_and_dtypes(capsys):
    a = tf.constant([1.0, 2.0])
    i = tf.constant([1, 2])
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement()
        a + a
        a + a  # the same op and dtypes: nothing more
        i + i  # 32-bit integers live in host memory
        tf.exp(a)
        with tf.GradientTape() as tape:  # tapes still see the ops
            tape.watch(a)
            y = tf.reduce_sum(a * a)
        assert tape.gradient(y, a).numpy().tolist() == [2.0, 4.0]
    finally:
        tf.debugging.set_log_device_placement(False)
    a - a  # off again
    lines = capsys.readouterr().out.splitlines()
    assert lines[:13] == [
        f"x: (_Arg): {CPU}", f"y: (_Arg): {CPU}", f"AddV2: (AddV2): {CPU}",
        f"z_RetVal: (_Retval): {CPU}",
        f"x: (_DeviceArg): {CPU}", f"y: (_DeviceArg): {CPU}", f"AddV2: (AddV2): {CPU}",
        f"z_RetVal: (_DeviceRetval): {CPU}",
        f"x: (_Arg): {CPU}", f"Exp: (Exp): {CPU}", f"y_RetVal: (_Retval): {CPU}",
        f"x: (_Arg): {CPU}", f"y: (_Arg): {CPU}"]
    assert not any(line.startswith("Sub") for line in lines)
    assert not tf.debugging.get_log_device_placement()
