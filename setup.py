"""Install rules/ as `irlint.rules` and viewer/ as `irlint.viewer` (docs/architecture.md, Packaging).

pyproject.toml cannot express a package-dir mapping together with package discovery, so this file
computes the package list; everything else lives in pyproject.toml.
"""

from setuptools import find_packages, setup

TREES = {"irlint": "irlint", "irlint.rules": "rules", "irlint.viewer": "viewer"}

packages: list[str] = []
package_dir: dict[str, str] = {}
for name, folder in TREES.items():
    package_dir[name] = folder
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder) if not sub.startswith("tests")]
setup(packages=sorted(set(packages)), package_dir=package_dir)
