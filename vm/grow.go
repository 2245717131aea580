package vm

// sizeClasses are the Go runtime's small-object size classes (amd64), used
// to reproduce append's capacity growth exactly.
var sizeClasses = [...]int{0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

const (
	maxSmallSize           = 32768
	mallocHeaderSize       = 8
	minSizeForMallocHeader = 8 * 64
	pageSize               = 8192
)

// roundupSize returns the size of the memory block malloc would use for a
// request of size bytes.
func roundupSize(size int, noscan bool) int {
	req := size
	if req <= maxSmallSize-mallocHeaderSize {
		if !noscan && req > minSizeForMallocHeader {
			req += mallocHeaderSize
		}
		for _, c := range sizeClasses[1:] {
			if c >= req {
				return c - (req - size)
			}
		}
	}
	return (size + pageSize - 1) &^ (pageSize - 1)
}

// nextSliceCap is the runtime's growth rule before rounding.
func nextSliceCap(newLen, oldCap int) int {
	newcap := oldCap
	doublecap := newcap + newcap
	if newLen > doublecap {
		return newLen
	}
	const threshold = 256
	if oldCap < threshold {
		return doublecap
	}
	for {
		newcap += (newcap + 3*threshold) >> 2
		if uint(newcap) >= uint(newLen) {
			break
		}
	}
	if newcap <= 0 {
		return newLen
	}
	return newcap
}

// growCap returns the capacity append gives a slice of elements of
// elemBytes bytes growing from oldCap to hold newLen elements.
func growCap(oldCap, newLen int, elemBytes int64, noscan bool) int {
	newcap := nextSliceCap(newLen, oldCap)
	if elemBytes <= 0 {
		return newcap
	}
	mem := roundupSize(newcap*int(elemBytes), noscan)
	return mem / int(elemBytes)
}
