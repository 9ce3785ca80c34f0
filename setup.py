"""Which packages the distribution holds, found automatically: a new kind folder needs no edit here.

Two top-level folders install under other import names: encodings/ as `loopbench_encodings`
(`encodings` is a standard-library package) and instances/, the bundled instance sets, as
`loopbench_instances` (package data, read through importlib.resources). Everything else about
the project is in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

RENAMED = {"encodings": "loopbench_encodings", "instances": "loopbench_instances"}
CODE = ("harness", "encodings")  # every folder below these is a package, with or without __init__.py


def packages() -> list[str]:
    found = []
    for folder in CODE:
        name = RENAMED.get(folder, folder)
        subs = find_namespace_packages(include=[folder, f"{folder}.*"], exclude=["*__pycache__*"])
        found += [name + package[len(folder):] for package in subs]
    return [*found, RENAMED["instances"]]  # instances/: one package, its sub-folders are data


setup(
    packages=packages(),
    package_dir={name: folder for folder, name in RENAMED.items()},
    # The sets' manifest, bundles, notes and plain-text files, in the package and its data folders.
    package_data={"loopbench_instances": ["*.json", "*.md", "*/*"],
                  "harness.report": ["*.js", "*.css"],  # the report's assets, copied beside index.html
                  "loopbench_encodings": ["*.json"]},  # `auto`'s committed rule (encodings/auto.json)
    exclude_package_data={"loopbench_instances": ["__pycache__/*"]},
)
