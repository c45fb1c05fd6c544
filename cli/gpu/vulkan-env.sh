# Sourced by the cli/gpu scripts that run the vulkan engine on the GPU machine (after h200-env.sh): the carried Vulkan
# loader (.gpu/vulkan: `apt-get download libvulkan1`, `dpkg -x` it there) on the library path, and NVIDIA's ICD named
# through a manifest of its EGL library (the packaged manifest names the GLX one, which needs an X server).
mkdir -p "$OUT/icd"
export LD_LIBRARY_PATH="$root/.gpu/vulkan/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
egl="$(ldconfig -p 2>/dev/null | awk '/libEGL_nvidia\.so\.0/ {print $NF; exit}')"
[ -z "$egl" ] && [ -e /usr/local/nvidia/lib64/libEGL_nvidia.so.0 ] && egl=/usr/local/nvidia/lib64/libEGL_nvidia.so.0
printf '{"file_format_version": "1.0.1", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' "$egl" > "$OUT/icd/nvidia_egl_icd.json"
export VK_DRIVER_FILES="$OUT/icd/nvidia_egl_icd.json" VK_ICD_FILENAMES="$OUT/icd/nvidia_egl_icd.json"
