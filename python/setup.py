"""Copies the C API's shared library into the package as it is built, so that an
installed `ariadne` needs nothing else: from $ARIADNE_LIBRARY when set, else from the
source tree's build (build/libariadne_c.so, `make build`). Without either it stops
and says so, rather than install a package that cannot load.

Compiles ariadne/_events.c, which adds a list of op dicts to a history at C speed
(Python's headers: Debian's python3-dev). It links against nothing: it calls the C API
through the addresses ctypes found in the copied library. $ARIADNE_INCLUDE names the
folder of ariadne/ariadne.h when this folder is not inside the source tree."""

import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithLibrary(build_py):
    def run(self):
        library = os.environ.get("ARIADNE_LIBRARY") or os.path.join(HERE, "..", "build", "libariadne_c.so")
        if not os.path.exists(library):
            raise SystemExit(f"ariadne: no libariadne_c.so at {library}: build ariadne first (make build), "
                             "or set ARIADNE_LIBRARY to the library's path")
        shutil.copyfile(library, os.path.join(HERE, "ariadne", "libariadne_c.so"))
        super().run()


setup(
    cmdclass={"build_py": BuildWithLibrary},
    # optional: without a compiler or Python's headers the package still installs, and
    # a Python loop does what the extension does, ten times slower.
    ext_modules=[Extension("ariadne._events", ["ariadne/_events.c"],
                           include_dirs=[os.environ.get("ARIADNE_INCLUDE") or os.path.join(HERE, "..", "include")],
                           extra_compile_args=["-O2"], optional=True)],
)
