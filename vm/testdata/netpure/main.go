// Command netpure uses the pure-Go part of package net (IP addresses,
// masks, CIDR and MAC parsing, host:port splitting and joining, TCP and
// UDP addresses, its package-level variables, net.Pipe), which gmc
// interprets from source (mitchellh/mapstructure's StringToIPHookFunc);
// with the argument "dial" it dials, which stays the OS boundary.
package main

import (
	"fmt"
	"net"
	"os"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "dial" {
		_, err := net.Dial("tcp", "127.0.0.1:1")
		fmt.Println(err)
		return
	}
	fmt.Println(len(net.IPv4bcast), net.IPv4zero, net.IPv6loopback)
	ip := net.ParseIP("1.2.3.4")
	fmt.Println(ip.String(), ip.Equal(net.IPv4(1, 2, 3, 4)), net.IPv4Mask(255, 255, 255, 0).String())
	_, n, err := net.ParseCIDR("1.2.3.4/24")
	fmt.Println(n, err, n.Contains(ip), n.Contains(net.ParseIP("1.2.4.1")))
	_, _, err = net.ParseCIDR("5")
	fmt.Println(err)
	fmt.Printf("%#v\n", net.IPv4(1, 2, 3, 4))
	fmt.Println(net.ParseIP("5") == nil, net.IP{}.String(), ip.To4(), ip.DefaultMask().String(), ip.IsPrivate())
	var x net.IP
	fmt.Println(x.UnmarshalText([]byte("::1")), x, net.CIDRMask(20, 32))
	hw, err := net.ParseMAC("00:00:5e:00:53:01")
	fmt.Println(hw, err)
	for _, hp := range []string{"example.com:80", "[::1]:443", "[fe80::1%eth0]:8080", "nocolon", "a:b:c"} {
		h, p, err := net.SplitHostPort(hp)
		fmt.Printf("%q %q %v\n", h, p, err)
	}
	fmt.Println(net.JoinHostPort("::1", "53"), net.JoinHostPort("host", "80"))
	ta := &net.TCPAddr{IP: net.ParseIP("10.10.10.10"), Port: 5000}
	ua := &net.UDPAddr{IP: net.ParseIP("::1"), Port: 53, Zone: "lo"}
	fmt.Println(ta.String(), ta.Network(), ua.String(), ua.Network(), ta.AddrPort())
	var addr net.Addr = ta
	fmt.Println(addr.String(), net.TCPAddrFromAddrPort(ta.AddrPort()).String())

	// net.Pipe: an in-memory connection, a deadline, and a closed end
	a, b := net.Pipe()
	go func() {
		a.Write([]byte("ping"))
		a.Close()
	}()
	buf := make([]byte, 8)
	k, err := b.Read(buf)
	fmt.Println(string(buf[:k]), err, b.LocalAddr().Network())
	_, err = b.Read(buf)
	fmt.Println(err)
	c, d := net.Pipe()
	c.SetReadDeadline(time.Now().Add(-time.Second))
	_, err = c.Read(buf)
	fmt.Println(err, os.IsTimeout(err))
	d.Close()
	_, err = c.Write([]byte("x"))
	fmt.Println(err)
}
