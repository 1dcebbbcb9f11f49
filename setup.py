"""The compiled cinch search is optional: where no C compiler is found, the build goes
on without it and the pure-Python search (the reference) runs instead."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("booray_audit._search", ["booray_audit/_search.c"],
                             extra_compile_args=["-O3"], optional=True)])
