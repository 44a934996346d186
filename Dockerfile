# Dataflow worker image for `paranmt build` (docs/dataflow.md): Beam's Python 3.11 SDK image + this project with
# the extras its stages need (setup.py), every version pinned (requirements/lock.txt). PARANMT_EXTRAS names them;
# `paranmt check-dataflow` prints the value for a launch's stages. The default suits the default stages with the
# ctranslate2 backend: translate (ctranslate2), train (CUDA torch: score, xsim), parse (stanza); add `fairseq` for
# translate.backend=fairseq (compiles fairseq-fixed, 3-5 min), `hf` for translate.backend=transformers.
#
#   docker build -t REGION-docker.pkg.dev/PROJECT/REPO/paranmt-worker:0.1.0 .
#   docker build --build-arg PARANMT_EXTRAS=translate,fairseq,train,parse -t ... .
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
ARG PARANMT_EXTRAS=translate,train,parse

# a C/C++ toolchain for fairseq-fixed (an sdist with C++/Cython extensions), only when it is built
RUN case ",$PARANMT_EXTRAS," in *,fairseq,*) apt-get update \
        && apt-get install -y --no-install-recommends build-essential \
        && rm -rf /var/lib/apt/lists/* ;; esac

WORKDIR /opt/paranmt
COPY requirements/lock.txt requirements/lock.txt

# The fairseq extra only: torch (CUDA build from PyPI) and fairseq-fixed's build requirements, then fairseq-fixed
# compiled against that torch (no build isolation, so pip does not fetch a second multi-GB torch for the build);
# fairseq-fixed pulls torchaudio, whose binary does not match torch 2.13 and that paranmt never imports.
RUN case ",$PARANMT_EXTRAS," in *,fairseq,*) \
        pip install --no-cache-dir torch==2.13.0 Cython==3.3.1 numpy==2.4.6 setuptools==84.2.1 \
        && pip install --no-cache-dir --no-build-isolation fairseq-fixed==0.12.3.1 \
        && pip uninstall -y torchaudio ;; esac

# The project, installed in place (editable) with its extras at the locked versions (apache-beam stays at the base
# image's 2.77.0), so that `assets/...` model paths resolve to /opt/paranmt/assets on the workers exactly as on a
# launcher started from this image (`docker run --entrypoint paranmt IMAGE build ...`). Models given as gs:// URLs
# are copied once per worker VM instead (transforms/io/model_cache.py, cache directory $PARANMT_MODEL_CACHE).
# With translate: the CUDA 12 cuBLAS that ctranslate2 loads. Then every extra's modules must import.
COPY . /opt/paranmt
RUN pip install --no-cache-dir -c requirements/lock.txt -e "/opt/paranmt[$PARANMT_EXTRAS]" \
    && case ",$PARANMT_EXTRAS," in *,translate,*) pip install --no-cache-dir nvidia-cublas-cu12==12.9.1.4 ;; esac \
    && python -c "import sys; from paranmt.pipelines.runtime.extras import EXTRAS, require_extra; \
[require_extra(extra, module) for extra in sys.argv[1].split(',') for module in EXTRAS[extra]]; \
import apache_beam, paranmt.pipelines.build; print('beam', apache_beam.__version__, 'extras', sys.argv[1])" \
        "$PARANMT_EXTRAS"
ENV LD_LIBRARY_PATH=/usr/local/lib/python3.11/site-packages/nvidia/cublas/lib
# Dataflow runs one SDK process per vCPU: one math thread each keeps the CPU stages from oversubscribing cores.
ENV PARANMT_MODEL_CACHE=/var/tmp/paranmt-models \
    OMP_NUM_THREADS=1

# Beam's worker boot script stays the entrypoint (Dataflow requires it).
ENTRYPOINT ["/opt/apache/beam/boot"]
