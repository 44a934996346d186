# Dataflow worker image for `paranmt build` (docs/dataflow.md): Beam's Python 3.11 SDK image + CUDA torch,
# fairseq-fixed, ctranslate2, stanza and this project, every version pinned (requirements/lock.txt).
#
#   docker build -t REGION-docker.pkg.dev/PROJECT/REPO/paranmt-worker:0.1.0 .
#   docker push REGION-docker.pkg.dev/PROJECT/REPO/paranmt-worker:0.1.0
#   paranmt build ... --runner DataflowRunner --sdk_container_image REGION-docker.pkg.dev/PROJECT/REPO/paranmt-worker:0.1.0
#
# NOT BUILT on the machine this project was developed on (no container engine there). What was checked instead:
# the pins install together in the project's venv (CPU torch), `paranmt check-dataflow` builds the job offline
# against this image name, and the CUDA facts below were read from the wheels' own metadata.
#
# CUDA: the PyPI wheel torch==2.13.0 for Linux x86_64 is the CUDA 13.0 build (it depends on the pip packages
# cuda-toolkit==13.0.3 and nvidia-cudnn-cu13==9.20.0.48, which carry the CUDA libraries; no CUDA base image is
# needed) and needs an NVIDIA driver >= 580 on the worker. ctranslate2==4.8.5 (the default translate backend)
# links the CUDA runtime statically and dlopens libcublas.so.12, supplied here by nvidia-cublas-cu12, so it runs
# with CUDA 12 drivers (>= 525). Dataflow installs the driver when the accelerator says `install-nvidia-driver`.
FROM apache/beam_python3.11_sdk:2.77.0

# a C/C++ toolchain for fairseq-fixed (an sdist with C++/Cython extensions)
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/paranmt
COPY requirements/lock.txt requirements/lock.txt

# 1. torch (CUDA build from PyPI) and fairseq-fixed's build requirements, then fairseq-fixed compiled against that
#    torch (no build isolation, so pip does not fetch a second multi-GB torch for the build).
# 2. everything else at the locked versions (apache-beam stays at the base image's 2.77.0).
# 3. fairseq-fixed pulls torchaudio, whose binary does not match torch 2.13 and that paranmt never imports.
# 4. the CUDA 12 cuBLAS that ctranslate2 loads.
RUN pip install --no-cache-dir torch==2.13.0 Cython==3.3.1 numpy==2.4.6 setuptools==84.2.1 \
    && pip install --no-cache-dir --no-build-isolation fairseq-fixed==0.12.3.1 \
    && pip install --no-cache-dir -r requirements/lock.txt \
    && pip uninstall -y torchaudio \
    && pip install --no-cache-dir nvidia-cublas-cu12==12.9.1.4
ENV LD_LIBRARY_PATH=/usr/local/lib/python3.11/site-packages/nvidia/cublas/lib

# The project, installed in place (editable) so that `assets/...` model paths resolve to /opt/paranmt/assets on
# the workers exactly as on a launcher started from this image (`docker run --entrypoint paranmt IMAGE build ...`).
# Models given as gs:// URLs are copied once per worker VM instead (transforms/io/model_cache.py, cache directory
# $PARANMT_MODEL_CACHE).
COPY . /opt/paranmt
RUN pip install --no-cache-dir --no-deps -e /opt/paranmt \
    && python -c "import apache_beam, ctranslate2, fairseq, stanza, torch, paranmt.pipelines.build; \
print('beam', apache_beam.__version__, 'torch', torch.__version__, 'cuda', torch.version.cuda, \
'ctranslate2', ctranslate2.__version__)"
# Dataflow runs one SDK process per vCPU: one math thread each keeps the CPU stages from oversubscribing cores.
ENV PARANMT_MODEL_CACHE=/var/tmp/paranmt-models \
    OMP_NUM_THREADS=1

# Beam's worker boot script stays the entrypoint (Dataflow requires it).
ENTRYPOINT ["/opt/apache/beam/boot"]
